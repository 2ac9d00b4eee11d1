/* settings.c — what the server drivers share: their settings object into result text. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "driver.h"

void driver_settings_text(json_t *set, bb_server_info *out)
{
    char *js = json_dumps(set, JSON_COMPACT | JSON_PRESERVE_ORDER);
    snprintf(out->settings, sizeof out->settings, "%s", js ? js : "");
    free(js);
    json_decref(set);
}
