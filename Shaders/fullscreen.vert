#version 300 es
// One triangle covering the whole viewport; no vertex buffers (uses gl_VertexID).
// v_uv is the canvas coordinate: (0,0) top-left, (1,1) bottom-right, sampled at pixel centres.
out vec2 v_uv;

void main() {
    vec2 clip = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    v_uv = vec2(clip.x * 0.5 + 0.5, 0.5 - clip.y * 0.5);
    gl_Position = vec4(clip, 0.0, 1.0);
}
