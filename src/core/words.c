#include "words.h"

#include <ctype.h>
#include <stdlib.h>
#include <strings.h>

int tf_split(const char *text, tf_words *out) {
    out->n = 0;
    for (const char *p = text;;) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) return out->n;
        if (out->n == TF_MAX_WORDS) return -1;
        int len = 0;
        while (*p && !isspace((unsigned char)*p)) {
            if (len + 1 >= TF_WORD_MAX) return -1;
            out->w[out->n][len++] = *p++;
        }
        out->w[out->n++][len] = 0;
    }
}

int tf_read_int(const char *w, long lo, long hi, int *out) {
    char *end;
    long v = strtol(w, &end, 10);
    if (!*w || *end || v < lo || v > hi) return 0;
    *out = (int)v;
    return 1;
}

int tf_read_count(const char *w, long lo, long hi, int *out, const char **rest) {
    long v = 0;
    const char *p = w;
    for (; *p >= '0' && *p <= '9'; p++)
        if ((v = v * 10 + (*p - '0')) > hi) return 0; /* before it can overflow */
    if (p == w || v < lo) return 0;
    *out = (int)v;
    *rest = p;
    return 1;
}

int tf_find_name(const char *w, const char *const *names, int n) {
    for (int i = 0; i < n; i++)
        if (strcasecmp(w, names[i]) == 0) return i;
    return -1;
}
