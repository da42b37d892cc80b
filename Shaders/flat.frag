#version 300 es
// A flat picture placed on the canvas: picture uv = canvas uv * u_uvScale + u_uvOffset.
// Outside the picture: the background. Inside: the picture (premultiplied alpha) over the background.
// The result is opaque, then blended into the target with the layer's opacity (u_opacity).
precision highp float;

in vec2 v_uv;
out vec4 fragColor;

uniform sampler2D u_picture;
uniform vec3 u_background;
uniform float u_opacity;
uniform vec2 u_uvScale;
uniform vec2 u_uvOffset;

void main() {
    vec2 p = v_uv * u_uvScale + u_uvOffset;
    vec3 rgb = u_background;
    if (all(greaterThanEqual(p, vec2(0.0))) && all(lessThanEqual(p, vec2(1.0)))) {
        vec4 c = texture(u_picture, p);
        rgb = c.rgb + u_background * (1.0 - c.a);
    }
    fragColor = vec4(rgb, u_opacity);
}
