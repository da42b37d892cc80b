// Tail of every layer shader: transition, effect, then projection, then the picture (premultiplied) over the
// background. The layer is opaque inside its coverage; the output is premultiplied by u_opacity * coverage and
// blended over what is below (ONE, ONE_MINUS_SRC_ALPHA).
// No early return for an uncovered pixel: with one, llvmpipe's bilinear filter read a wrong diagonal texel when
// magnifying into a display's buffer (a zoomed picture on DRM came out with a grid; headless FBOs were fine).
void main() {
    vec3 t = kiosk_transition(v_uv);
    float alpha = u_opacity * t.z;
    vec2 p = kiosk_source(kiosk_effect(t.xy));
    vec3 rgb = u_background;
    if (p.x >= 0.0) {
        vec4 c = kiosk_sample(p);
        rgb = c.rgb + u_background * (1.0 - c.a);
    }
    fragColor = vec4(rgb * alpha, alpha);
}
