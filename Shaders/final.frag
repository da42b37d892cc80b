#version 300 es
// Final pass: draws the finished canvas onto the screen turned by the output's rotation.
// canvas uv = u_screenToCanvas * (screen uv, 1); the canvas texture is an FBO (bottom-up rows).
precision highp float;

in vec2 v_uv;
out vec4 fragColor;

uniform sampler2D u_canvas;
uniform mat3 u_screenToCanvas;

void main() {
    vec2 c = (u_screenToCanvas * vec3(v_uv, 1.0)).xy;
    fragColor = vec4(texture(u_canvas, vec2(c.x, 1.0 - c.y)).rgb, 1.0);
}
