#include "CKioskALSAShim.h"

#include <alsa/asoundlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static kiosk_alsa_message_hook installed_hook;
static void *installed_context;
static __thread char last_message[512];

static void handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file;
    (void)line;
    char text[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (err != 0)
        snprintf(last_message, sizeof last_message, "%s: %s (%s)", function ? function : "alsa", text, snd_strerror(err));
    else
        snprintf(last_message, sizeof last_message, "%s: %s", function ? function : "alsa", text);
    for (char *c = last_message; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    kiosk_alsa_message_hook hook = __atomic_load_n(&installed_hook, __ATOMIC_ACQUIRE);
    void *context = __atomic_load_n(&installed_context, __ATOMIC_ACQUIRE);
    if (hook) hook(context, last_message);
}

void kiosk_alsa_set_message_hook(kiosk_alsa_message_hook hook, void *context) {
    __atomic_store_n(&installed_hook, (kiosk_alsa_message_hook)0, __ATOMIC_RELEASE);
    __atomic_store_n(&installed_context, context, __ATOMIC_RELEASE);
    __atomic_store_n(&installed_hook, hook, __ATOMIC_RELEASE);
    snd_lib_error_set_handler(handler);
}

const char *kiosk_alsa_last_message(void) { return last_message; }

void kiosk_alsa_clear_last_message(void) { last_message[0] = '\0'; }
