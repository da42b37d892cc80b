// Slide: the incoming item pushes the outgoing one out along u_direction (canvas uv, unit: left = (-1, 0)).
// At p the outgoing picture is offset by p * direction, the incoming one by (p - 1) * direction; a layer
// covers only where its shifted picture lies.
uniform vec2 u_direction;

vec3 kiosk_transition(vec2 canvasUV) {
    vec2 offset = (u_transitionRole == 1 ? u_progress - 1.0 : u_progress) * u_direction;
    vec2 q = canvasUV - offset;
    bool inside = all(greaterThanEqual(q, vec2(0.0))) && all(lessThanEqual(q, vec2(1.0)));
    return vec3(q, inside ? 1.0 : 0.0);
}
