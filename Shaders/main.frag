// Tail of every layer shader: transition, effect, then projection, then the picture (premultiplied) over the
// background. The layer is opaque inside its coverage; the output is premultiplied by u_opacity * coverage and
// blended over what is below (ONE, ONE_MINUS_SRC_ALPHA).
void main() {
    vec3 t = kiosk_transition(v_uv);
    float alpha = u_opacity * t.z;
    if (alpha <= 0.0) {
        fragColor = vec4(0.0);
        return;
    }
    vec2 p = kiosk_source(kiosk_effect(t.xy));
    vec3 rgb = u_background;
    if (p.x >= 0.0) {
        vec4 c = kiosk_sample(p);
        rgb = c.rgb + u_background * (1.0 - c.a);
    }
    fragColor = vec4(rgb * alpha, alpha);
}
