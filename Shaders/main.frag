// Tail of every layer shader: transition, effect, then projection, then the picture (premultiplied) over the
// background, then what the effect paints over it (the mosaic's bar). The layer is opaque inside its coverage;
// the output is premultiplied by u_opacity * coverage and blended over what is below (ONE, ONE_MINUS_SRC_ALPHA).
// Every pixel takes the same path (an uncovered one just gets alpha 0): no early return to diverge on.
void main() {
    vec3 t = kiosk_transition(v_uv);
    float alpha = u_opacity * t.z;
    vec2 p = kiosk_source(kiosk_effect(t.xy));
    vec3 rgb = u_background;
    if (p.x >= 0.0) {
        vec4 c = kiosk_sample(p);
        rgb = c.rgb + u_background * (1.0 - c.a);
    }
    rgb = kiosk_effect_paint(t.xy, rgb);
    fragColor = vec4(rgb * alpha, alpha);
}
