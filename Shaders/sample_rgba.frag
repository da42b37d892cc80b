// Sampling stage for a picture uploaded as one RGBA8 texture (premultiplied): stills and animations.
// (Sphere projections use sample_rgba_exact.frag.)
uniform sampler2D u_picture;

vec4 kiosk_sample(vec2 uv) {
    return texture(u_picture, uv);
}
