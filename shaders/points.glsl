#version 330
// Round markers (segment handles, ray entry points, explain-mode t values): points expanded to
// screen-space squares of `in_size` pixels, cut to a disc with a dark rim.

#if defined VERTEX_SHADER

in vec3 in_position;
in vec4 in_color;
in float in_size;

uniform mat4 m_vp;

out vec4 vs_color;
out float vs_size;

void main() {
    gl_Position = m_vp * vec4(in_position, 1.0);
    vs_color = in_color;
    vs_size = in_size;
}

#elif defined GEOMETRY_SHADER

layout (points) in;
layout (triangle_strip, max_vertices = 4) out;

uniform vec2 viewport;

in vec4 vs_color[1];
in float vs_size[1];
out vec4 g_color;
out vec2 g_uv;

void main() {
    vec4 p = gl_in[0].gl_Position;
    if (p.w <= 1e-3) return;
    vec2 r = vec2(vs_size[0]) / viewport * p.w;
    for (int i = 0; i < 4; i++) {
        vec2 corner = vec2(i % 2 == 0 ? -1.0 : 1.0, i < 2 ? -1.0 : 1.0);
        g_color = vs_color[0];
        g_uv = corner;
        gl_Position = vec4(p.xy + corner * r, p.zw);
        EmitVertex();
    }
    EndPrimitive();
}

#elif defined FRAGMENT_SHADER

in vec4 g_color;
in vec2 g_uv;
out vec4 f_color;

void main() {
    float d = length(g_uv);
    if (d > 1.0) discard;
    float rim = smoothstep(0.62, 0.75, d);
    f_color = vec4(mix(g_color.rgb, vec3(0.05), rim), g_color.a);
}
#endif
