#ifndef CKIOSK_WEB_FOLDER_FILTER_H
#define CKIOSK_WEB_FOLDER_FILTER_H

#include <stddef.h>
#include <wpe/webkit.h>

/* A content rule list (WebKit's content blocker) that blocks every load whose URL does not start with
 * `allowed_prefix`: other files, http, https. Compiled in a temporary folder that is removed again before this
 * returns (the list stays mapped); runs the default main context until the compiler answers. NULL with the reason in
 * `error` when it cannot be made. */
WebKitUserContentFilter *kiosk_web_folder_filter(const char *allowed_prefix, char *error, size_t error_size);

#endif
