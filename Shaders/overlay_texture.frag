#version 300 es
// Overlay: an RGBA texture (stored premultiplied by Texture) stretched over its rect (the viewport), drawn premultiplied-over.
// v_uv (0,0) is the rect's top-left; texture row 0 is the picture's top.
precision highp float;

in vec2 v_uv;
out vec4 fragColor;

uniform sampler2D u_picture;
uniform float u_opacity;

void main() {
    fragColor = texture(u_picture, v_uv) * u_opacity;
}
