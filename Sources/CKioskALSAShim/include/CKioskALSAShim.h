#ifndef CKIOSK_ALSA_SHIM_H
#define CKIOSK_ALSA_SHIM_H

/* The one thing Swift cannot write for ALSA: the variadic error handler of snd_lib_error_set_handler.
 * ALSA prints "ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM nosuchpcm" to stderr by default. The handler
 * installed here formats each message into one line, keeps the calling thread's latest line, and passes it to a hook
 * (or drops it when there is none). */

/* Receives one formatted ALSA message ("function: text"); `context` is what was given with the hook. */
typedef void (*kiosk_alsa_message_hook)(void *context, const char *line);

/* Installs the handler. `hook` may be NULL: messages are then only kept for kiosk_alsa_last_message. */
void kiosk_alsa_set_message_hook(kiosk_alsa_message_hook hook, void *context);

/* The calling thread's latest ALSA message since kiosk_alsa_clear_last_message ("" when none). */
const char *kiosk_alsa_last_message(void);

/* Forgets the calling thread's latest message. */
void kiosk_alsa_clear_last_message(void);

#endif
