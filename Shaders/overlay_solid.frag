#version 300 es
// Overlay: a solid rectangle of a premultiplied colour, drawn inside its rect (the viewport) premultiplied-over.
precision highp float;

in vec2 v_uv;
out vec4 fragColor;

uniform vec4 u_color;
uniform float u_opacity;

void main() {
    fragColor = u_color * u_opacity;
}
