#version 330
// Thick lines: GL_LINES expanded to screen-space quads of `width` pixels in a geometry shader
// (core profiles cap glLineWidth at 1). Each vertex carries its own RGBA, so a line can fade.

#if defined VERTEX_SHADER

in vec3 in_position;
in vec4 in_color;

uniform mat4 m_vp;

out vec4 vs_color;

void main() {
    gl_Position = m_vp * vec4(in_position, 1.0);
    vs_color = in_color;
}

#elif defined GEOMETRY_SHADER

layout (lines) in;
layout (triangle_strip, max_vertices = 4) out;

uniform vec2 viewport;
uniform float width;

in vec4 vs_color[2];
out vec4 g_color;

void main() {
    vec4 a = gl_in[0].gl_Position;
    vec4 b = gl_in[1].gl_Position;
    vec4 ca = vs_color[0];
    vec4 cb = vs_color[1];
    // clip against the near plane (w > eps) so a line through the camera stays sane
    const float eps = 1e-3;
    if (a.w < eps && b.w < eps) return;
    if (a.w < eps) { float t = (eps - a.w) / (b.w - a.w); a = mix(a, b, t); ca = mix(ca, cb, t); }
    if (b.w < eps) { float t = (eps - b.w) / (a.w - b.w); b = mix(b, a, t); cb = mix(cb, ca, t); }

    vec2 sa = a.xy / a.w * viewport * 0.5;
    vec2 sb = b.xy / b.w * viewport * 0.5;
    vec2 dir = sb - sa;
    float len = length(dir);
    dir = len > 1e-6 ? dir / len : vec2(1.0, 0.0);
    vec2 off = vec2(-dir.y, dir.x) * width * 0.5 / (viewport * 0.5);

    g_color = ca; gl_Position = vec4(a.xy + off * a.w, a.zw); EmitVertex();
    g_color = ca; gl_Position = vec4(a.xy - off * a.w, a.zw); EmitVertex();
    g_color = cb; gl_Position = vec4(b.xy + off * b.w, b.zw); EmitVertex();
    g_color = cb; gl_Position = vec4(b.xy - off * b.w, b.zw); EmitVertex();
    EndPrimitive();
}

#elif defined FRAGMENT_SHADER

in vec4 g_color;
out vec4 f_color;

void main() {
    f_color = g_color;
}
#endif
