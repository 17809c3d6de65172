/*
** main.c -- the tafel program: the command table and dispatch.
**
** Every command is one row below (name, usage, summary, help, handler), as
** in Redis's command table; `tafel help CMD` and `tafel CMD --help` print
** the same text.  Unknown commands exit with 2.
*/
#include "cli.h"

#include <string.h>

#ifdef TAFEL_MPI
#define SIM_MPI_NOTE "MPI is\nbuilt in."
#else
#define SIM_MPI_NOTE "This tafel\nwas built without MPI (no libopenmpi-dev found)."
#endif

static const cli_command commands[] = {
    {"play",
     "play [GAME] [--players P1,P2,...] [--seed S] [--no-color] [--record FILE]\n"
     "           [--load FILE] [--lang L] [--notation]",
     "play a game at the terminal against bots or people",
     "GAME is a game string (default carcassonne). --players lists who plays\n"
     "each seat: 'human' or a bot spec (default human,greedy); their number\n"
     "sets players= unless GAME does (then they must agree). --seed fixes the\n"
     "tiles drawn (default: from the clock; the seed is printed). --record\n"
     "writes the game's record JSON at the end (its folder is checked at the\n"
     "start). --load FILE continues a saved record (its game and players,\n"
     "unless --players says otherwise). Colours only on a terminal, and not\n"
     "with --no-color or NO_COLOR set.\n\n"
     "Every action is told in words: what was placed, played or dealt, what\n"
     "it scored and why. --lang L speaks en, nl, de or it (default: from\n"
     "LC_ALL, LC_MESSAGES or LANG, else English); --notation shows each\n"
     "action's notation too, in brackets. Moves are typed in notation.\n\n"
     "A seat may be a program in any language: ext:COMMAND[,ms=N] runs COMMAND\n"
     "(/bin/sh) and speaks the bot protocol of docs/protocol.md with it, N ms\n"
     "a move (default 10000): --players human,\"ext:python3 bots/example.py\".\n"
     "A program that crashes, stalls or answers an illegal move forfeits.\n\n"
     "At your turn type a move's number or its text (\"place 1 0 90\"), or:\n"
     "  undo        take back your last move of this turn\n"
     "  board, key  the whole board; what the symbols mean\n"
     "  hint        the hard bot's three best moves\n"
     "  save FILE   write the record so far\n"
     "  help        this list, with moves of the game being played\n"
     "  quit        stop (so does end of input)",
     cli_play},
    {"sim",
     "sim [GAME] --players BOT1,BOT2,... [--games N] [--threads T] [--seed S] "
     "[--paired] [--sprt ELO0,ELO1] [--out FILE]\n"
     "           [--resume] [--progress SECONDS] [--json]\n"
     "       mpirun -np RANKS tafel sim ... (the same options)",
     "play bots against each other: win rates, Elo, SPRT",
     "Plays N games (default 100) of GAME (default carcassonne). Game i uses a\n"
     "seed derived from S (default 1) and i, and seats rotate: in game i seat k\n"
     "is played by bot (k+i) mod n, so each bot plays every seat.\n\n"
     "--paired plays every deal n times, once in each seating (two bots: twice,\n"
     "seats swapped), with the same chance seed, so that the luck of the deal\n"
     "largely cancels out (chance outcomes are the same as far as play allows);\n"
     "N must be a multiple of n, and the intervals count deals as independent.\n\n"
     "Prints each bot's win rate (a shared win among k players counts 1/k)\n"
     "with a 95% Wilson interval over units (games, or with --paired deals,\n"
     "a deal worth as many games as its spread shows, at most n), its mean\n"
     "score and its mean time a move (wall clock, and the CPU time of the\n"
     "thread it thought in, which other load does not lengthen: what makes\n"
     "a match at equal time checkable). With two bots also bot 1's mean\n"
     "score difference to bot 2 and its Elo difference: its win rate p and\n"
     "that same interval as -400 log10(1/p - 1); at 0% or 100% the Elo is\n"
     "unbounded on that side and the report says so. --json prints the\n"
     "whole report as one JSON object on stdout and nothing else\n"
     "(docs/cluster.md).\n\n"
     "--sprt ELO0,ELO1 (two bots, ELO0 < ELO1) runs a sequential probability\n"
     "ratio test of 'bot 1 is ELO1 Elo stronger' against 'ELO0 Elo stronger'\n"
     "(logistic Elo; error rates 5% each way, so LLR bounds -2.94 and +2.94).\n"
     "It stops after the first game, or deal, at which it decides; N (default\n"
     "100000) is then the most games. The progress bar shows the LLR.\n\n"
     "A bot may be a program in any language, ext:COMMAND[,ms=N] (the bot\n"
     "protocol of docs/protocol.md; N ms a move, default 10000). One that\n"
     "crashes, stalls, answers garbage, an illegal move or too late forfeits\n"
     "that game (a loss; the reason is in the results and the record), and\n"
     "the match goes on with a fresh process.\n\n"
     "--out writes one record JSON per line, in game order, for the games\n"
     "counted, with its final scores, winners and any forfeit. Results do not depend on --threads (default 1).\n\n"
     "--resume (with --out) continues a run that was cut off: the records FILE\n"
     "holds are read back and counted as the first games, and play goes on\n"
     "from the next; the report and FILE end as those of a run never cut. A\n"
     "cut last line is dropped; records of another run (game, seed, seating)\n"
     "are refused. Without FILE it starts anew.\n\n"
     "Progress goes to stderr: a bar on a terminal, else (a batch job's log) a\n"
     "line every 60 s: games, games/s, time left. --progress S: a line every S\n"
     "seconds; --progress 0: none.\n\n"
     "Started by mpirun (or srun) with several ranks, the games are spread\n"
     "over them, --threads T game threads each; rank 0 counts every game in\n"
     "game order and alone prints, so the results, FILE and the --sprt verdict\n"
     "are those of one process with the same --seed (docs/cluster.md). "
     SIM_MPI_NOTE,
     cli_sim},
    {"selfplay",
     "selfplay GAME --players BOT1,BOT2[,...] --out DIR [--games N] [--seed S]\n"
     "           [--threads T] [--shard-games K] [--kind KIND] [--resume] [--progress S]",
     "bot against bot, every decision a training sample, in shards",
     "Plays N games (default 64) of GAME as tafel sim does with the same --seed\n"
     "(default 1) and --players (built-in bots; the seats rotate from game to\n"
     "game), and writes every decision of a seat as a sample for learning:\n"
     "the seat's tensor, its legal actions as a mask over the game's action\n"
     "space, the bot's search as (index, share) pairs (each root move's share\n"
     "of the visits; a bot that does not search gives its choice, share 1),\n"
     "the seat, and when the game is over the seat's outcome (+1 a winner, -1\n"
     "not, 0 for all when every seat wins) and margin (its final score minus\n"
     "the best other seat's).\n\n"
     "Shard s holds games s*K to s*K+K-1 (--shard-games, default 64), in one\n"
     "file DIR/shard-NNNNNN.bin, written whole and then renamed into place;\n"
     "DIR/manifest.json names the run (game, bots, seed, kind, shapes) and,\n"
     "at the end, every shard. DIR is made when missing. --kind is the tensor:\n"
     "information_state (default: what the seat has seen, the most a bot that\n"
     "searches from the seat's view knows) or observation. The format, and\n"
     "tafel.shards for Python, are in docs/selfplay.md.\n\n"
     "The shards are the same, byte for byte, for any --threads (default 1:\n"
     "each thread plays whole shards) and any number of MPI ranks (mpirun, as\n"
     "tafel sim: each rank writes the shards it plays, rank 0 the manifest;\n"
     "DIR must be one folder for all). A search bot on a time budget (hard,\n"
     "medium, mcts:ms=...) is the same only while its iterations end it first.\n"
     "--resume goes on with the run DIR holds: shards complete on disk are\n"
     "kept, the others played. A DIR holding another run's manifest is refused,\n"
     "and one holding this run's without --resume. Progress on stderr as\n"
     "tafel sim's, in shards (--progress S; 0: none). " SIM_MPI_NOTE,
     cli_selfplay},
    {"replay", "replay FILE [--json] [--at N] [--step [--json] [--seat N] [--lang L]\n"
               "           [--notation]] [--views SEAT]",
     "replay a record and show the result",
     "Replays the record in FILE (the first line of a JSON-lines file) and\n"
     "prints the final position and scores, or with --json one object:\n"
     "{\"game\", \"actions\", \"terminal\", \"next\", \"scores\", \"projected\",\n"
     "\"winners\"}. --at N stops after the first N actions.\n\n"
     "--step tells every action in words, what it did (the tiles, the points\n"
     "and why, the cards, the dice), and shows the position after each turn\n"
     "(at a terminal, Enter goes on and q stops); chance events in a row are\n"
     "one paragraph. --seat N tells it as seat N saw it (default -1, a\n"
     "spectator). --lang L speaks en, nl, de or it (default: from LC_ALL,\n"
     "LC_MESSAGES or LANG, else English). --notation puts each action's text\n"
     "in the game's notation first, in brackets.\n\n"
     "--step --json prints one object per action instead: {\"n\", \"seat\" (who\n"
     "played), \"action\", \"events\"}, the events of the engine's account\n"
     "(docs/events.md); as seat N saw them with --seat N, else the record's\n"
     "action, a spectator's events and \"by_seat\", each seat's; with --lang\n"
     "also \"words\", each event's sentence in that language.\n\n"
     "--views SEAT prints one JSON line per position, from the start\n"
     "and after each action: {\"actions\", \"view\" (what SEAT sees; -1 a\n"
     "spectator), \"text\" (the action as SEAT saw it), \"seat\" (who played\n"
     "it), \"reveals\"}. Action numbers in errors are 0-based. Exit code 1\n"
     "when the record is bad.",
     cli_replay},
    {"perft", "perft [GAME] [--seed S] [--depth D] [--prefix N] [--divide]",
     "count the leaves of the game tree from a random position",
     "Plays N random actions (default 10) from the initial state with an rng\n"
     "seeded by S (default 1), then counts the leaves of the tree of depth D\n"
     "(default 2): chance nodes branch over every outcome, a terminal state is\n"
     "one leaf. --divide also prints the count under each first action.",
     cli_perft},
    {"bench", "bench [--games N] [--runs R] [--game NAME] [--iters N]",
     "time fixed random games and searches; print a deterministic signature",
     "For each game in the bench table, plays N fixed seeded random games on\n"
     "one thread, R times (default 5), and prints the median games per second\n"
     "(and the slowest and fastest run, to show how steady the machine was),\n"
     "the median nanoseconds per step (an action, chance included: games\n"
     "differ in length, steps compare engines), the steps a game, and a\n"
     "signature of every action and final score. For a game with tensors,\n"
     "a line more: the nanoseconds to write one observation tensor and one\n"
     "legal-action mask, and what they cost in steps, measured on the states\n"
     "of its bench games (out of the signature), and one more: decisions per\n"
     "second through a batch of 64 states (tafel_batch_step, random actions,\n"
     "tensors and masks written; --games scales it too). Then, for each game,\n"
     "the mcts bot's iterations per second on one thread from a fixed position\n"
     "40% into a seeded random game (--iters N a search, default 20000;\n"
     "Carcassonne with random rollouts), median of R runs. The last line is\n"
     "'Bench: <signature>' of the games alone, the same on every run and\n"
     "machine. --game NAME times only the bench games whose string contains\n"
     "NAME (no signature).",
     cli_bench},
    {"soak",
     "soak [GAME] [--games N] [--seed S] [--threads T] [--every K] [--out FILE]",
     "random games with every invariant checked after every action",
     "Plays N random games (default 1000) of GAME (default carcassonne), game i\n"
     "from a seed derived from S (default 1) and i, and checks after every\n"
     "action: the game's own tafel_state_check (its conservation of followers,\n"
     "tiles and cards), that a clone and a copy compare equal, that the legal\n"
     "actions are sorted, unique and each legal, that chance probabilities sum\n"
     "to 1, that the action's text reads back as the action, and that\n"
     "tafel_state_play_random takes the same step to the same state; and every\n"
     "K actions (--every, default 1: all; game i at the actions numbered i\n"
     "modulo K) that each seat's view is unchanged by resampling what that seat\n"
     "cannot see, the costly check. At the end of each game its record,\n"
     "written as JSON and read back, must replay to the same final state.\n\n"
     "Prints games, actions, seconds and failures. On a failure it stops: it\n"
     "prints the check, the game, its seed and the action, writes the game's\n"
     "record up to the failed check to --out (default soak-failure.json; see\n"
     "tafel replay) and exits with 1. --threads T (default 1) plays games in\n"
     "parallel; the games do not depend on T or K, nor the failure reported\n"
     "(the lowest game that fails) on T. A progress bar with the time left is\n"
     "drawn when stderr is a terminal.",
     cli_soak},
    {"serve",
     "serve [--port 8080] [--db tafel.db] [--bind 127.0.0.1] [--web DIR] [--workers N] "
     "[--durable] [--db-connections N] [--ext NAME=COMMAND[,ms=N]]... "
     "[--cert FILE --key FILE] "
     "[--allow-origin ORIGIN]... [--host NAME]... [--behind-proxy] [--allow-chosen-seeds] "
     "[--node NAME] [--lease SECONDS] [limits]",
     "tables over the network: the web page, seats, bots, a database",
     "Serves the page in web/ and the tables over a WebSocket on one port\n"
     "(protocol: docs/protocol.md), and prints the address to open. Listens\n"
     "on --bind (default 127.0.0.1: this machine only; 0.0.0.0 for a network);\n"
     "--port 0 takes any free port. Tables live in the SQLite file --db\n"
     "(created on first start), or in the PostgreSQL database of a\n"
     "postgresql:// URI given as --db: every move is stored before anyone sees it,\n"
     "and a restart, or a kill, resumes every unfinished table. --durable\n"
     "syncs each move to the disk before anyone is told of it (survives a\n"
     "power cut). --db-connections N commits moves on N threads, each with\n"
     "its own connection, off the event loop (default 8 on PostgreSQL, 0 on\n"
     "SQLite: there a commit is done at once; 0 to 64). Bots think on\n"
     "--workers threads (default: one per core) at a lower priority. --web\n"
     "DIR serves another copy of the page. Ctrl-C stops it.\n"
     "--ext NAME=COMMAND[,ms=N] (repeatable) offers an external bot: a program\n"
     "in any language (docs/protocol.md, \"Bots in any language\") that a table\n"
     "seats as \"ext:NAME\"; N is its time per move in milliseconds. Only the\n"
     "names given here can be seated: clients never name a command.\n"
     "--cert FILE --key FILE serve https:// and wss:// (PEM files).\n"
     "--allow-origin ORIGIN (repeatable) lets pages of another origin, such as\n"
     "https://club.example.org, open the WebSocket; the server's own always may.\n"
     "--host NAME (repeatable): a name the server is reached by, such as\n"
     "club.example.org; requests whose Host is none of its names (an IP\n"
     "address, localhost, these) are refused (421), against DNS rebinding.\n"
     "--behind-proxy: behind a reverse proxy on this machine, the client's\n"
     "address is the last one of its X-Forwarded-For header.\n"
     "Limits (docs/server.md, \"Limits\", gives each default): --max-per-address N\n"
     "sockets per client address (0: no limit); --idle-timeout T closes a\n"
     "socket that answers no ping; --max-queue KIB unread bytes before a\n"
     "socket is closed; --max-rate N messages a second per socket;\n"
     "--max-new-tables N per address an hour (0: no limit); --max-tables N\n"
     "unfinished at once; --expire T ends a table nobody has moved at for T\n"
     "(0: never); --invite-expire T ends a table whose invitations are not all\n"
     "accepted within T (1d); --bot-ms MS and --hint-ms MS cap a bot's thinking per move\n"
     "and per hint; --max-bot-iters N the iterations a seat's bot may ask for\n"
     "(0: no cap). T is seconds, or a number with s, m, h or d (30d).\n"
     "Logins: --max-login-failures N wrong passwords per name and address,\n"
     "and --max-address-failures N per address (names that logged in there\n"
     "before excepted) in 15 minutes, then \"slow down\"; past\n"
     "--slow-name-failures N per name from every address its answers wait\n"
     "3 s (0: never); --max-signups N accounts and --max-guests N guests per\n"
     "address an hour (0: no limit); --guest-expire T deletes a guest without\n"
     "seats, lines or results T after its last use (default 1d; 0: never).\n"
     "--allow-chosen-seeds lets tables of people take a chosen seed too, which\n"
     "deals the same hidden cards at another table: for tests and for replaying\n"
     "a tournament's deals, never on a server open to players.\n"
     "Several nodes on PostgreSQL (docs/server.md, \"Several nodes\"): --node NAME\n"
     "names this node (default: the host name and the port, host:8080; letters,\n"
     "digits, '.', '-', ':' and '_', at most 64), --lease SECONDS how long it\n"
     "counts as alive without renewing (default 10, renewed every fifth).",
     cli_serve},
    {"admin",
     "admin --db FILE players | reset-password NAME [--generate] | disable NAME | "
     "enable NAME | close-table ID | void NAME [--game GAME]",
     "a server's players and tables from the command line",
     "Looks after the database of tafel serve (--db: a file or a\n"
     "postgresql:// URI; upgraded when older):\n"
     "  players               lists every player: name, kind, created, last\n"
     "                        seen, disabled, games played\n"
     "  reset-password NAME   reads the new password (8 to 256 bytes) from the\n"
     "                        first line of stdin, or makes one and prints it\n"
     "                        with --generate; ends the account's logins\n"
     "  disable NAME          the player can no longer log in; its logins end\n"
     "  enable NAME           undoes disable\n"
     "  close-table ID        ends an unfinished table (reason \"closed\")\n"
     "  void NAME             voids the rated results of every table NAME sat\n"
     "                        at (of GAME only with --game) and rates the\n"
     "                        games again without them: the remedy for\n"
     "                        rating farming\n"
     "A running server reads players and logins from the database at each\n"
     "request, so the first four and void take effect at once. It keeps its tables in\n"
     "memory, so close-table refuses while a server holds the database open:\n"
     "stop the server first.",
     cli_admin},
    {"list", "list", "list the games, their parameters and the bots",
     "Lists every game with its summary and parameters, and every bot.",
     cli_list},
};

#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

static const cli_command *find_command(const char *name) {
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(commands[i].name, name)) return &commands[i];
    return NULL;
}

static void usage(FILE *out) {
    fprintf(out, "tafel %s -- tabletop game engines\n\nusage: tafel COMMAND "
                 "[ARGS]\n\ncommands:\n", TAFEL_VERSION);
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'tafel help COMMAND' or 'tafel COMMAND --help' for details;"
                 " 'tafel --version'.\n");
}

static int unknown_command(const char *name) {
    fprintf(stderr, "tafel: unknown command '%s' (commands:", name);
    for (int i = 0; i < NCOMMANDS; i++) fprintf(stderr, " %s", commands[i].name);
    fprintf(stderr, ")\n");
    return CLI_USAGE;
}

static int help(int argc, char **argv) {
    if (argc < 3) {
        usage(stdout);
        return 0;
    }
    const cli_command *cmd = find_command(argv[2]);
    if (!cmd) return unknown_command(argv[2]);
    cli_print_help(cmd, stdout);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help"))
        return help(argc, argv);
    if (!strcmp(name, "--version") || !strcmp(name, "version")) {
        printf("tafel %s\n", TAFEL_VERSION);
        return 0;
    }
    const cli_command *cmd = find_command(name);
    if (!cmd) return unknown_command(name);
    return cmd->run(cmd, argc - 1, argv + 1);
}
