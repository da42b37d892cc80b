// Minification pre-pass for an RGBA picture: the area filter (minify_taps.frag) over kiosk_sample. Composed as
// prelude.frag + a sampling stage + minify_taps.frag + minify.frag; u_pictureSize is the source's texel grid,
// u_canvasSize the output's size. The output is an FBO texture (rows bottom-up), so its pixel row j holds texture
// row j: gl_FragCoord indexes the footprint directly.
void main() {
    vec2 ratio = u_pictureSize / u_canvasSize;
    vec2 pixel = floor(gl_FragCoord.xy);
    vec2 lo = min(kiosk_minify_snap(pixel * ratio), u_pictureSize);
    vec2 hi = min(kiosk_minify_snap((pixel + 1.0) * ratio), u_pictureSize);
    int nx = kiosk_minify_pairs(lo.x, hi.x);
    int ny = kiosk_minify_pairs(lo.y, hi.y);
    vec4 sum = vec4(0.0);
    float total = 0.0;
    for (int j = 0; j < ny; j++) {
        vec2 ty = kiosk_minify_tap(lo.y, hi.y, j);
        for (int i = 0; i < nx; i++) {
            vec2 tx = kiosk_minify_tap(lo.x, hi.x, i);
            float w = tx.y * ty.y;
            sum += w * kiosk_sample(vec2(tx.x, ty.x) / u_pictureSize);
            total += w;
        }
    }
    fragColor = total > 0.0 ? sum / total : vec4(0.0);
}
