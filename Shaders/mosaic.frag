// Mosaic: left of the split (canvas x ≤ u_split, 0..1) each canvas point shows the centre of its tile of
// u_tile canvas pixels (tiles laid out from the canvas centre; a tile cut by the canvas edge shows the point
// nearest its centre inside the canvas); right of it the picture is untouched.
uniform float u_tile;
uniform float u_split;

vec2 kiosk_effect(vec2 canvasUV) {
    if (canvasUV.x > u_split) {
        return canvasUV;
    }
    vec2 half_ = 0.5 * u_canvasSize;
    vec2 p = canvasUV * u_canvasSize - half_;
    p = floor(p / u_tile) * u_tile + 0.5 * u_tile + half_;
    return clamp(p, vec2(0.5), u_canvasSize - 0.5) / u_canvasSize;
}
