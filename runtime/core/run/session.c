/* session.c — a run's sessions (see session.h). */
#include "session.h"
#include "../../../base/err.h"

int session_settings(const bb_plan *p, bb_conn *c, bb_err *err)
{
    for (int i = 0; i < p->nsettings; i++)
        if (!p->set_global[i] && p->drv->set_session(c, p->set_name[i], p->set_value[i], err) < 0) return -1;
    return 0;
}

int session_open(const bb_plan *p, bb_target *t, bb_conn **out, bb_err *err)
{
    *out = NULL;
    if (p->drv->connect(t, out, err) < 0) {
        *out = NULL;
        return -1;
    }
    return session_settings(p, *out, err);
}
