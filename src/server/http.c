/*
** http.c -- the libwebsockets side: one port for HTTP and the WebSocket.
**
** Written against libwebsockets 4.1 (Debian bookworm) and its pitfalls
** (docs: ../shared/notes/stack-research.md §1.4): only lws_cancel_service
** is called from other threads; one lws_write per WRITEABLE callback, with
** LWS_PRE bytes before the data, the rest queued; a message arrives in
** pieces and is assembled up to SERVER_MAX_MESSAGE; a numeric IPv4 bind
** address disables IPv6, or 4.1 would listen on every interface.
**
** HTTP: routes.c answers every request (one callback mount, the files of
** web/ too); WebSocket sessions: sockets.c.
*/
#include "http.h"
#include "tables.h"

#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct lws_context *context;

void http_wake(void) {
    if (context) lws_cancel_service(context);
}

/* ---- the context ------------------------------------------------------ */

static const struct lws_protocols protocols[] = {
    /* tx_packet_size: an answer goes to the socket in one write (routes.c) */
    {"http", routes_callback, sizeof(http_session), 0, 0, NULL, 16 << 20},
    {"tafel", sockets_callback, sizeof(session), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* Every request goes to routes.c (the files of web/ too: cached, gzip,
** ETags). */
static struct lws_http_mount mounts[1];

static int is_ipv4(const char *address) {
    int a, b, c, d;
    char end;
    return sscanf(address, "%d.%d.%d.%d%c", &a, &b, &c, &d, &end) == 4;
}

int http_start(const server_options *opt, int *port_out) {
    lws_set_log_level(LLL_ERR, NULL);
    memset(mounts, 0, sizeof mounts);
    mounts[0] = (struct lws_http_mount){.mountpoint = "/", .origin = "http",
                                        .origin_protocol = LWSMPRO_CALLBACK, .mountpoint_len = 1};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = opt->port;
    info.iface = opt->bind;
    info.protocols = protocols;
    info.mounts = &mounts[0];
    info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
    if (is_ipv4(opt->bind)) info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    info.vhost_name = "tafel";
    context = lws_create_context(&info);
    if (!context) return -1;
    struct lws_vhost *vhost = lws_create_vhost(context, &info);
    if (!vhost) {
        lws_context_destroy(context);
        context = NULL;
        return -1;
    }
    *port_out = lws_get_vhost_listen_port(vhost);
    return 0;
}

int http_service(void) { return lws_service(context, 0); }

void http_stop(void) {
    if (context) lws_context_destroy(context);
    context = NULL;
}
