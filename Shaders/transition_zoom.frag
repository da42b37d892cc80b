// Zoom: the outgoing item is magnified 1 -> 1.2 about the canvas centre at full alpha; the incoming one covers it
// with alpha p, so the old item fades out as it zooms.
vec3 kiosk_transition(vec2 canvasUV) {
    if (u_transitionRole == 1) {
        return vec3(canvasUV, u_progress);
    }
    return vec3(0.5 + (canvasUV - 0.5) / (1.0 + 0.2 * u_progress), 1.0);
}
