/*
** json_print.c -- cJSON_PrintUnformatted without its sprintf and sscanf per
** number: a state message holds hundreds of numbers and a large raw view,
** and printing them was a fifth of the server's CPU per action.
**
** The text is cJSON's, byte for byte: integers of fewer than 16 digits
** are written here (cJSON's "%1.15g" writes them as plain digits, read
** back exactly); any other number is left to cJSON itself.
*/
#include "json_print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *data;
    size_t len, cap;
    int failed;
} text;

static void add(text *t, const char *s, size_t n) {
    if (t->failed) return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1024;
        while (cap < t->len + n + 1) cap *= 2;
        char *p = realloc(t->data, cap);
        if (!p) {
            t->failed = 1;
            return;
        }
        t->data = p;
        t->cap = cap;
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
}

static void add_number(text *t, const cJSON *item) {
    double d = item->valuedouble;
    if (d > -1e15 && d < 1e15 && d == floor(d) && !(d == 0 && signbit(d))) {
        char digits[24], *end = digits + sizeof digits, *p = end;
        long long v = (long long)d;
        unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
        do *--p = (char)('0' + u % 10); while (u /= 10);
        if (v < 0) *--p = '-';
        add(t, p, (size_t)(end - p));
        return;
    }
    char *own = cJSON_PrintUnformatted(item); /* only this item: its next is not followed */
    if (!own) t->failed = 1;
    else add(t, own, strlen(own));
    free(own);
}

/* As cJSON's print_string_ptr: its short escapes, \u00XX for the other
** controls, every other byte (UTF-8 too) as it is. */
static void add_string(text *t, const char *s) {
    add(t, "\"", 1);
    const char *run = s;
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 32 && c != '"' && c != '\\') continue;
        add(t, run, (size_t)(s - run));
        run = s + 1;
        char esc[7] = {'\\', 0};
        switch (c) {
        case '"': case '\\': esc[1] = (char)c; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            esc[1] = 'u', esc[2] = '0', esc[3] = '0';
            esc[4] = "0123456789abcdef"[c >> 4], esc[5] = "0123456789abcdef"[c & 15];
        }
        add(t, esc, strlen(esc));
    }
    if (run) add(t, run, (size_t)(s - run));
    add(t, "\"", 1);
}

static void add_value(text *t, const cJSON *item) {
    switch (item->type & 0xff) {
    case cJSON_False: add(t, "false", 5); return;
    case cJSON_True: add(t, "true", 4); return;
    case cJSON_NULL: add(t, "null", 4); return;
    case cJSON_Number: add_number(t, item); return;
    case cJSON_String: add_string(t, item->valuestring); return;
    case cJSON_Raw:
        if (!item->valuestring) t->failed = 1; /* cJSON refuses it too */
        else add(t, item->valuestring, strlen(item->valuestring));
        return;
    case cJSON_Array:
    case cJSON_Object: {
        int object = (item->type & 0xff) == cJSON_Object;
        add(t, object ? "{" : "[", 1);
        for (const cJSON *c = item->child; c && !t->failed; c = c->next) {
            if (object) {
                add_string(t, c->string);
                add(t, ":", 1);
            }
            add_value(t, c);
            if (c->next) add(t, ",", 1);
        }
        add(t, object ? "}" : "]", 1);
        return;
    }
    default: t->failed = 1; /* an invalid item: cJSON prints nothing either */
    }
}

char *json_print(const cJSON *item) {
    text t = {0};
    if (!item) return NULL;
    add_value(&t, item);
    add(&t, "", 0);
    if (t.failed || !t.data) {
        free(t.data);
        return NULL;
    }
    t.data[t.len] = 0;
    return t.data;
}
