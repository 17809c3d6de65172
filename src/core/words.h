/*
** words.h -- reading action texts: blank-separated words, numbers, names
** (internal, shared by the games' notations).
*/
#ifndef TF_WORDS_H
#define TF_WORDS_H

#define TF_MAX_WORDS 8
#define TF_WORD_MAX 24

typedef struct tf_words {
    int n;
    char w[TF_MAX_WORDS][TF_WORD_MAX];
} tf_words;

/* Split text at blanks; -1 when it has too many words or one too long. */
int tf_split(const char *text, tf_words *out);
/* w as a whole number in lo..hi; 0 when it is not one. */
int tf_read_int(const char *w, long lo, long hi, int *out);
/* The digits that begin w as a number in lo..hi (a count: "2" of "2L"),
** *rest past them; 0 when w does not begin with a digit or the number is
** out of range, however many digits it has. */
int tf_read_count(const char *w, long lo, long hi, int *out, const char **rest);
/* The index of w among names, ignoring case; -1 when none. */
int tf_find_name(const char *w, const char *const *names, int n);

#endif
