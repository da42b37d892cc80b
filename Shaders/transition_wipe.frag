// Wipe: the incoming item is revealed from one edge over the outgoing one. t = dot(canvasUV, u_edge.xy) + u_edge.z
// runs 0 -> 1 away from that edge; the incoming item covers the pixels whose centre has t < p.
uniform vec3 u_edge;

vec3 kiosk_transition(vec2 canvasUV) {
    if (u_transitionRole != 1) {
        return vec3(canvasUV, 1.0);
    }
    float t = dot(canvasUV, u_edge.xy) + u_edge.z;
    return vec3(canvasUV, t < u_progress ? 1.0 : 0.0);
}
