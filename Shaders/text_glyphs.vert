#version 300 es
// Text, first step: glyph quads from the atlas into the block's coverage target, 1:1. a_position is in the block's
// pixels, (0,0) its top-left; the block's top goes to the target's row 0, so the composite samples it top-down.
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec2 a_texel;

uniform vec2 u_areaSize;

out vec2 v_texel;

void main() {
    v_texel = a_texel;
    gl_Position = vec4(a_position / u_areaSize * 2.0 - 1.0, 0.0, 1.0);
}
