#version 330
// Triangles of the scene: flat-shaded (normal from screen-space derivatives), translucent.

#if defined VERTEX_SHADER

in vec3 in_position;
in vec4 in_color;

uniform mat4 m_vp;

out vec3 v_world;
out vec4 v_color;

void main() {
    gl_Position = m_vp * vec4(in_position, 1.0);
    v_world = in_position;
    v_color = in_color;
}

#elif defined FRAGMENT_SHADER

in vec3 v_world;
in vec4 v_color;

uniform vec3 light_dir;

out vec4 f_color;

void main() {
    vec3 n = normalize(cross(dFdx(v_world), dFdy(v_world)));
    float diffuse = 0.6 + 0.4 * abs(dot(n, normalize(light_dir)));
    f_color = vec4(v_color.rgb * diffuse, v_color.a);
}
#endif
