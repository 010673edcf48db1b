#version 330
// A whole-window layer composited over the frame: one triangle covering the viewport, sampling
// a texture of premultiplied colour (crowded scenes draw their NONE boxes into it at half
// resolution, see app/view.py).

#if defined VERTEX_SHADER

out vec2 v_uv;

void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    v_uv = p * 0.5 + 0.5;
    gl_Position = vec4(p, 0.0, 1.0);
}

#elif defined FRAGMENT_SHADER

in vec2 v_uv;

uniform sampler2D layer;

out vec4 f_color;

void main() {
    f_color = texture(layer, v_uv);
}
#endif
