/*
** bot_answer.c -- fuzz target: bytes as what an external bot's program
** writes at its turn (docs/protocol.md, the bot protocol), read by the
** controller of src/extbot/.
**
** The input names a position (fz_position_make; chance is played on to the
** next seat's turn).  The rest is the program's output: a shell greets,
** reads tafel's hello, new_game and turn, and then writes those bytes, with
** every "@" replaced by the text of the position's first legal action, so
** that the fuzzer can build a legal answer.  Whatever the bytes, the
** controller must come back with an action that is legal there, or a
** forfeit with a reason; the program is then ended.  A process per input:
** some hundreds of inputs a second.
*/
#include "fuzz.h"
#include "extbot.h"

#include <stdint.h>
#include <unistd.h>

static char path[] = "/tmp/tafel-fuzz-bot-XXXXXX";
static char spec[256];

static void setup(void) {
    int fd = mkstemp(path);
    if (fd < 0) fz_fail("mkstemp: cannot make %s", path);
    close(fd);
    snprintf(spec, sizeof spec,
             "ext:printf '{\"type\":\"hello\"}\\n'; read -r a; read -r b; read -r c; "
             "cat %s,ms=300", path);
}

/* The program's output: data, with "@" made the first legal action. */
static void write_output(const uint8_t *data, size_t size, const char *legal) {
    FILE *f = fopen(path, "wb");
    if (!f) fz_fail("cannot write %s", path);
    for (size_t i = 0; i < size; i++)
        if (data[i] == '@') fputs(legal, f);
        else fputc(data[i], f);
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!spec[0]) setup();
    fz_position p;
    fz_position_make(&data, &size, &p);
    uint64_t rng = 1;
    while (tafel_state_current(p.state) == TAFEL_CHANCE)
        tafel_state_play_random(p.state, &rng, p.list, p.max_actions, NULL);
    int seat = tafel_state_current(p.state);
    if (seat >= 0) {
        char legal[TAFEL_ACTION_TEXT_MAX], why[EXTBOT_REASON_MAX];
        tafel_state_legal_actions(p.state, p.list, p.max_actions);
        tafel_action_to_text(p.state, p.list[0], legal, sizeof legal);
        write_output(data, size, legal);
        extbot *bot = extbot_new(spec, why, sizeof why);
        if (!bot) fz_fail("extbot_new: %s", why);
        tafel_action a;
        if (extbot_new_game(bot, p.game, seat, 1, why, sizeof why))
            fz_fail("the shell did not greet: %s", why);
        if (extbot_choose(bot, p.state, &a, why, sizeof why) == 0) {
            if (!tafel_state_is_legal(p.state, a))
                fz_fail("the controller accepted action %d, which is not legal", (int)a);
        } else if (!why[0]) {
            fz_fail("a forfeit without a reason");
        }
        extbot_free(bot);
    }
    fz_position_free(&p);
    return 0;
}
