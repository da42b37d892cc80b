// Tail of every layer shader: effect, then projection, then the picture (premultiplied) over the background.
// The result is opaque, blended into the target with the layer's opacity.
void main() {
    vec2 p = kiosk_source(kiosk_effect(v_uv));
    vec3 rgb = u_background;
    if (p.x >= 0.0) {
        vec4 c = texture(u_picture, p);
        rgb = c.rgb + u_background * (1.0 - c.a);
    }
    fragColor = vec4(rgb, u_opacity);
}
