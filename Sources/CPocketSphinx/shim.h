// Debian's pocketsphinx 5prealpha (libpocketsphinx-dev) and sphinxbase.
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/cmd_ln.h>
