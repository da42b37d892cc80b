#version 300 es
// Text, second step: the block's coverage (R8, row 0 its top) made into the look, premultiplied: the fill, over an
// outline (the coverage grown by the outline width: the most of two rings of taps), over a soft shadow (the
// coverage blurred over a disc of the outline width + softness, moved by the offset).
// Drawn with fullscreen.vert over the block's area; v_uv (0,0) is its top-left (into a texture: u_flipRows).
precision highp float;

in vec2 v_uv;
out vec4 fragColor;

uniform sampler2D u_coverage;
uniform vec2 u_areaSize;       // the block's area, pixels
uniform vec2 u_coverageSize;   // the coverage texture, pixels
uniform vec3 u_fillColor;
uniform vec3 u_outlineColor;
uniform float u_outlineWidth;  // pixels; 0: none
uniform vec3 u_shadowColor;
uniform float u_shadowOpacity; // 0: none
uniform vec2 u_shadowOffset;   // pixels, right and down
uniform float u_shadowSoftness;
uniform float u_opacity;
uniform float u_flipRows;      // 1: drawn into a texture whose row 0 must be the block's top

const int RING = 16;

float coverageAt(vec2 p) {
    return texture(u_coverage, p / u_coverageSize).r;
}

// The ring's directions, (i + 0.5) / RING of a turn each: a table, not cos and sin for every tap of every pixel
// (which cost most of the text's time on llvmpipe).
const vec2 DIRECTIONS[RING] = vec2[RING](
    vec2(0.980785280, 0.195090322),
    vec2(0.831469612, 0.555570233),
    vec2(0.555570233, 0.831469612),
    vec2(0.195090322, 0.980785280),
    vec2(-0.195090322, 0.980785280),
    vec2(-0.555570233, 0.831469612),
    vec2(-0.831469612, 0.555570233),
    vec2(-0.980785280, 0.195090322),
    vec2(-0.980785280, -0.195090322),
    vec2(-0.831469612, -0.555570233),
    vec2(-0.555570233, -0.831469612),
    vec2(-0.195090322, -0.980785280),
    vec2(0.195090322, -0.980785280),
    vec2(0.555570233, -0.831469612),
    vec2(0.831469612, -0.555570233),
    vec2(0.980785280, -0.195090322)
);

vec2 ringPoint(int i, float radius) {
    return DIRECTIONS[i] * radius;
}

// The coverage grown by `radius`: the most over the point and two rings of taps (radius and half of it).
float grown(vec2 p, float radius) {
    float c = coverageAt(p);
    for (int i = 0; i < RING; i++) {
        c = max(c, coverageAt(p + ringPoint(i, radius)));
        if ((i & 1) == 0) c = max(c, coverageAt(p + ringPoint(i, radius * 0.5)));
    }
    return c;
}

// The coverage averaged over a disc of `radius` (the point and two rings).
float blurred(vec2 p, float radius) {
    float sum = coverageAt(p);
    for (int i = 0; i < RING; i += 2) {
        sum += coverageAt(p + ringPoint(i, radius * 0.5)) + coverageAt(p + ringPoint(i + 1, radius));
    }
    return sum / float(1 + RING);
}

void main() {
    vec2 uv = u_flipRows > 0.5 ? vec2(v_uv.x, 1.0 - v_uv.y) : v_uv;
    vec2 p = uv * u_areaSize;
    float fill = coverageAt(p);
    float outline = u_outlineWidth > 0.0 ? grown(p, u_outlineWidth) : 0.0;
    float shadow = 0.0;
    if (u_shadowOpacity > 0.0) {
        float reach = u_outlineWidth + u_shadowSoftness;
        shadow = min(1.0, 2.0 * blurred(p - u_shadowOffset, max(reach, 1.0))) * u_shadowOpacity;
    }
    // Premultiplied: shadow, then the outline over it, then the fill over both.
    vec4 c = vec4(u_shadowColor * shadow, shadow);
    c = vec4(u_outlineColor * outline, outline) + c * (1.0 - outline);
    c = vec4(u_fillColor * fill, fill) + c * (1.0 - fill);
    fragColor = c * u_opacity;
}
