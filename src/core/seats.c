#include "seats.h"

const char *const tf_seat_names[TAFEL_MAX_PLAYERS] = {"Red", "Blue", "Yellow", "Green",
                                                      "Black"};
const char tf_seat_letters[TAFEL_MAX_PLAYERS] = {'R', 'B', 'Y', 'G', 'K'};
const char *const tf_seat_bg[TAFEL_MAX_PLAYERS] = {"48;5;160", "48;5;27", "48;5;220",
                                                   "48;5;40", "48;5;236"};
