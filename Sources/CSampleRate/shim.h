// libsamplerate (libsamplerate0-dev).
#include <samplerate.h>
