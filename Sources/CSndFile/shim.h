// libsndfile (libsndfile1-dev): WAV, FLAC, Ogg Vorbis/Opus, MP3.
#include <sndfile.h>
