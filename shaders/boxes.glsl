#version 330
// Instanced boxes: a unit cube [-1, 1]^3 placed by a per-instance model matrix (pyrr row-vector
// matrix uploaded as raw bytes == the GLSL column-major matrix), coloured by its class (NONE,
// INTERSECT, INCLUDE: an index into the class_* tables the app sets from app/colors.py), shaded
// by face and with its edges drawn in the fragment shader (distance to the face's border in
// pixels, via fwidth). Per class, faces and edges have their own opacity: crowded scenes let
// the NONE boxes recede.
// Dense scenes draw them opaque from a 3-face mesh (+x, +y, +z) that each instance mirrors
// towards the eye: the faces that can be seen, half the triangles of a whole cube.

#if defined VERTEX_SHADER

in vec3 in_position;
in vec3 in_normal;
in mat4 in_model;   // per instance
in float in_class;  // per instance: 0 NONE, 1 INTERSECT, 2 INCLUDE, 3 NONE kept by a frustum's planes

uniform mat4 m_vp;
uniform vec3 class_rgb[4];
uniform bool front_only;  // the 3-face mesh: mirror it per instance towards the eye
uniform vec3 eye;

out vec3 v_local;
out vec3 v_normal;
out vec3 v_color;
flat out int v_class;

void main() {
    vec3 local = in_position;
    vec3 normal = in_normal;
    if (front_only) {
        // column i of the model matrix is half_size_i * axis_i, column 3 the centre
        vec3 to_eye = eye - in_model[3].xyz;
        vec3 s = vec3(dot(to_eye, in_model[0].xyz) < 0.0 ? -1.0 : 1.0,
                      dot(to_eye, in_model[1].xyz) < 0.0 ? -1.0 : 1.0,
                      dot(to_eye, in_model[2].xyz) < 0.0 ? -1.0 : 1.0);
        local *= s;
        normal *= s;
    }
    vec4 world = in_model * vec4(local, 1.0);
    gl_Position = m_vp * world;
    v_local = local;
    vec3 n = mat3(in_model) * normal;  // zero for the faces of a flat box
    v_normal = dot(n, n) > 1e-12 ? normalize(n) : vec3(0.0, 1.0, 0.0);
    v_class = int(in_class + 0.5);
    v_color = class_rgb[v_class];
}

#elif defined FRAGMENT_SHADER

in vec3 v_local;
in vec3 v_normal;
in vec3 v_color;
flat in int v_class;

uniform vec3 light_dir;
uniform float face_alpha[4];  // per class: opacity of the faces ...
uniform float edge_alpha[4];  // ... and of the edges,
uniform float edge_white[4];  // ... how far the edges' colour goes towards white

out vec4 f_color;

void main() {
    // pixels to each pair of faces; on a face one of them is ~0, the edge is the middle one
    vec3 d = (1.0 - abs(v_local)) / max(fwidth(v_local), vec3(1e-6));
    float mid = max(min(d.x, d.y), min(max(d.x, d.y), d.z));
    float edge = 1.0 - smoothstep(0.8, 2.0, mid);

    vec3 n = normalize(v_normal);
    float diffuse = 0.55 + 0.45 * abs(dot(n, normalize(light_dir)));
    vec3 face = v_color * diffuse;
    vec3 rim = mix(v_color, vec3(1.0), edge_white[v_class]);
    f_color = vec4(mix(face, rim, edge), mix(face_alpha[v_class], edge_alpha[v_class], edge));
}
#endif
