// espeak-ng (libespeak-ng-dev): grapheme-to-phoneme for words a dictionary lacks.
#include <espeak-ng/speak_lib.h>
