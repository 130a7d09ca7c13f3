// Debian's pocketsphinx 5prealpha (libpocketsphinx-dev) and sphinxbase.
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/cmd_ln.h>
#include <stdio.h>

/* Exported by libpocketsphinx 5prealpha but not declared in its public
   headers (acmod.h): the file an acoustic model writes every frame's
   senone scores to, header first; closed at the end of the utterance. */
struct acmod_s;
int acmod_set_senfh(struct acmod_s *acmod, FILE *logfh);
