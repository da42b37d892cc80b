// Minification pre-pass for a YUV frame: the area filter (minify_taps.frag) over each plane at its own resolution,
// luma codes over the luma grid and chroma codes over the chroma grid, then one conversion to RGB (as ffmpeg's
// scaler filters the planes before converting; averaging converted RGB would clip and blur chroma first).
// Composed as prelude.frag + yuv.frag + a YUV layout's stage + minify_taps.frag + minify_yuv.frag. The footprint of
// an output pixel is a rectangle of displayed uv, mapped to stored uv (u_orient turns by quarter turns and flips).
// The output is an FBO texture (rows bottom-up), so its pixel row j holds texture row j.

// The mean luma code over stored uv [lo, hi).
float kiosk_minify_luma(vec2 lo, vec2 hi) {
    vec2 size = vec2(textureSize(u_plane0, 0));
    lo = clamp(kiosk_minify_snap(lo * size), vec2(0.0), size);
    hi = clamp(kiosk_minify_snap(hi * size), vec2(0.0), size);
    int nx = kiosk_minify_pairs(lo.x, hi.x);
    int ny = kiosk_minify_pairs(lo.y, hi.y);
    float sum = 0.0;
    float total = 0.0;
    for (int j = 0; j < ny; j++) {
        vec2 ty = kiosk_minify_tap(lo.y, hi.y, j);
        for (int i = 0; i < nx; i++) {
            vec2 tx = kiosk_minify_tap(lo.x, hi.x, i);
            float w = tx.y * ty.y;
            sum += w * kiosk_luma(vec2(tx.x, ty.x) / size);
            total += w;
        }
    }
    return total > 0.0 ? sum / total : 0.0;
}

// The mean chroma codes over chroma uv [lo, hi).
vec2 kiosk_minify_chroma(vec2 lo, vec2 hi) {
    vec2 size = vec2(textureSize(u_plane1, 0));
    lo = clamp(kiosk_minify_snap(lo * size), vec2(0.0), size);
    hi = clamp(kiosk_minify_snap(hi * size), vec2(0.0), size);
    int nx = kiosk_minify_pairs(lo.x, hi.x);
    int ny = kiosk_minify_pairs(lo.y, hi.y);
    vec2 sum = vec2(0.0);
    float total = 0.0;
    for (int j = 0; j < ny; j++) {
        vec2 ty = kiosk_minify_tap(lo.y, hi.y, j);
        for (int i = 0; i < nx; i++) {
            vec2 tx = kiosk_minify_tap(lo.x, hi.x, i);
            float w = tx.y * ty.y;
            sum += w * kiosk_chroma_area(vec2(tx.x, ty.x) / size);
            total += w;
        }
    }
    return total > 0.0 ? sum / total : vec2(0.0);
}

void main() {
    vec2 pixel = floor(gl_FragCoord.xy);
    vec2 a = kiosk_stored(pixel / u_canvasSize);
    vec2 b = kiosk_stored((pixel + 1.0) / u_canvasSize);
    vec2 lo = min(a, b);
    vec2 hi = max(a, b);
    float y = kiosk_minify_luma(lo, hi);
    vec2 c = kiosk_minify_chroma(lo + u_chromaShift, hi + u_chromaShift);
    fragColor = kiosk_yuv(vec3(y, c));
}
