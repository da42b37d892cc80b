#version 300 es
// Text, first step: a glyph's coverage copied from the R8 atlas (exact texels); blended with MAX where glyphs meet.
precision highp float;

in vec2 v_texel;
out vec4 fragColor;

uniform highp sampler2D u_atlas;

void main() {
    float coverage = texelFetch(u_atlas, ivec2(floor(v_texel)), 0).r;
    fragColor = vec4(coverage, 0.0, 0.0, 0.0);
}
