#include "FolderFilter.h"
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    GMainLoop *loop;
    WebKitUserContentFilter *filter;
    char *message;
} kiosk_filter_compile;

static void on_saved(GObject *store, GAsyncResult *result, gpointer data) {
    kiosk_filter_compile *compile = data;
    GError *error = NULL;
    compile->filter = webkit_user_content_filter_store_save_finish(WEBKIT_USER_CONTENT_FILTER_STORE(store), result, &error);
    if (compile->filter == NULL) compile->message = g_strdup(error && error->message ? error->message : "failed");
    g_clear_error(&error);
    g_main_loop_quit(compile->loop);
}

/* The rule list's JSON: block everything, then let through what starts with the prefix (its regular expression's
 * special characters escaped, case kept). */
static char *rules(const char *allowed_prefix) {
    GString *pattern = g_string_new("^");
    for (const char *c = allowed_prefix; *c; c++) {
        if (strchr(".*+?^$()[]{}|\\", *c)) g_string_append(pattern, "\\\\");
        if (*c == '"') g_string_append(pattern, "\\");
        g_string_append_c(pattern, *c);
    }
    char *json = g_strdup_printf(
        "[{\"trigger\":{\"url-filter\":\".*\"},\"action\":{\"type\":\"block\"}},"
        "{\"trigger\":{\"url-filter\":\"%s\",\"url-filter-is-case-sensitive\":true},\"action\":{\"type\":\"ignore-previous-rules\"}}]",
        pattern->str);
    g_string_free(pattern, TRUE);
    return json;
}

/* Removes the folder the list was compiled in, and frees its path. */
static void remove_storage(char *storage) {
    if (storage == NULL) return;
    GDir *dir = g_dir_open(storage, 0, NULL);
    if (dir != NULL) {
        const char *name;
        while ((name = g_dir_read_name(dir)) != NULL) {
            char *path = g_build_filename(storage, name, NULL);
            g_remove(path);
            g_free(path);
        }
        g_dir_close(dir);
    }
    g_rmdir(storage);
    g_free(storage);
}

WebKitUserContentFilter *kiosk_web_folder_filter(const char *allowed_prefix, char *error, size_t error_size) {
    GError *made = NULL;
    char *storage = g_dir_make_tmp("kiosk-web-filter-XXXXXX", &made);
    if (storage == NULL) {
        snprintf(error, error_size, "cannot make a folder for the content filter: %s", made ? made->message : "failed");
        g_clear_error(&made);
        return NULL;
    }
    WebKitUserContentFilterStore *store = webkit_user_content_filter_store_new(storage);
    char *json = rules(allowed_prefix);
    GBytes *source = g_bytes_new_take(json, strlen(json));
    kiosk_filter_compile compile = { .loop = g_main_loop_new(NULL, FALSE) };
    webkit_user_content_filter_store_save(store, "kiosk-folder", source, NULL, on_saved, &compile);
    g_main_loop_run(compile.loop);
    g_main_loop_unref(compile.loop);
    g_bytes_unref(source);
    g_object_unref(store);
    /* the compiled list is mapped by now: its file can go at once, so no folder outlives a helper that is killed */
    remove_storage(storage);
    if (compile.filter == NULL) {
        snprintf(error, error_size, "the content filter did not compile: %s", compile.message ? compile.message : "failed");
        g_free(compile.message);
    }
    return compile.filter;
}
