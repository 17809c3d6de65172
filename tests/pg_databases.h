/*
** pg_databases.h -- the store's C tests on PostgreSQL: a new empty database
** for each test on a throwaway cluster, dropped at the end.
**
** Included by one test file each (its functions are static): the cluster is
** pg_conninfo, a libpq conninfo or URI (TAFEL_TEST_PG, from
** scripts/test-server.sh --pg, or TAFEL_TEST_PG_URI); the databases are
** named <prefix><pid>_<n>, so that test programs running at once on one
** cluster never meet.
*/
#ifndef TAFEL_TESTS_PG_DATABASES_H
#define TAFEL_TESTS_PG_DATABASES_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

static const char *pg_conninfo; /* NULL: no PostgreSQL */
static int pg_databases;        /* made so far */

/* Runs sql on the cluster's postgres database (CREATE and DROP DATABASE). */
static void pg_admin(const char *sql) {
    char info[1024];
    if (strstr(pg_conninfo, "://")) /* a URI takes dbname as a parameter too */
        snprintf(info, sizeof info, "%s%sdbname=postgres", pg_conninfo,
                 strchr(pg_conninfo, '?') ? "&" : "?");
    else
        snprintf(info, sizeof info, "%s dbname=postgres", pg_conninfo);
    PGconn *c = PQconnectdb(info);
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) fail_msg("%s: %s", sql, PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
}

/* A new empty database of the cluster: its postgresql:// URI. */
static void pg_new_database(const char *prefix, char *uri, size_t size) {
    char sql[128], name[64];
    snprintf(name, sizeof name, "%s%d_%d", prefix, (int)getpid(), pg_databases++);
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
    pg_admin(sql);
    char *why = NULL;
    PQconninfoOption *opts = PQconninfoParse(pg_conninfo, &why);
    if (!opts) fail_msg("the cluster's conninfo: %s", why ? why : "not a conninfo");
    const char *host = "", *port = "", *user = "";
    for (PQconninfoOption *o = opts; o->keyword; o++) {
        if (!o->val) continue;
        if (!strcmp(o->keyword, "host")) host = o->val;
        if (!strcmp(o->keyword, "port")) port = o->val;
        if (!strcmp(o->keyword, "user")) user = o->val;
    }
    snprintf(uri, size, "postgresql://%s@/%s?host=%s&port=%s", user, name, host, port);
    PQconninfoFree(opts);
}

/* Drops every database pg_new_database made. */
static void pg_drop_databases(const char *prefix) {
    for (int i = 0; i < pg_databases; i++) {
        char sql[128];
        snprintf(sql, sizeof sql, "DROP DATABASE %s%d_%d WITH (FORCE)", prefix, (int)getpid(), i);
        pg_admin(sql);
    }
}

#endif
