#version 330
// HUD text and panels in pixel coordinates (origin top-left, y down). One instance per glyph:
// a quad at `in_rect` (x, y, w, h) sampling layer `in_char` of moderngl-window's VeraMono
// texture array; in_char < 0 draws a solid rectangle (panel backgrounds).

#if defined VERTEX_SHADER

in vec2 in_corner;     // (0,0) .. (1,1)
in vec4 in_rect;       // per instance
in float in_char;      // per instance
in vec4 in_color;      // per instance

uniform vec2 viewport;

out vec2 v_uv;
flat out float v_char;
out vec4 v_color;

void main() {
    vec2 px = in_rect.xy + in_corner * in_rect.zw;
    gl_Position = vec4(px.x / viewport.x * 2.0 - 1.0, 1.0 - px.y / viewport.y * 2.0, 0.0, 1.0);
    v_uv = in_corner;  // layer rows are stored top row first, like the PNG
    v_char = in_char;
    v_color = in_color;
}

#elif defined FRAGMENT_SHADER

in vec2 v_uv;
flat in float v_char;
in vec4 v_color;

uniform sampler2DArray font;

out vec4 f_color;

void main() {
    if (v_char < 0.0) {
        f_color = v_color;
        return;
    }
    // single channel: glyph alpha. Minified to HUD sizes (11-16 px from 159 px glyphs) the
    // strokes average out to half coverage; the gain brings them back to full strength.
    float coverage = min(texture(font, vec3(v_uv, v_char)).r * 1.7, 1.0);
    if (coverage < 0.03) discard;
    f_color = vec4(v_color.rgb, v_color.a * coverage);
}
#endif
