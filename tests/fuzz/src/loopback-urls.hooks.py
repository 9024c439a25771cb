# Schemathesis hooks of the fuzz suite (loaded through SCHEMATHESIS_HOOKS).
#
# In: every request case just before it is sent. Out: the same case with each string under a
# `url` or `webhookUrl` key of its JSON body (at any depth) replaced by the suite's webhook
# receiver on 127.0.0.1 (LONGHAUL_FUZZ_WEBHOOK_URL; a closed loopback port without it). The api
# checks webhook URLs by resolving their host, and the notifier calls them when a job ends:
# generated host names must never reach a resolver or the network. The services run with loopback
# and http webhook URLs allowed, so such bodies still pass and exercise the paths that store and
# deliver webhooks, here.
import os

import schemathesis

LOOPBACK_URL = os.environ.get("LONGHAUL_FUZZ_WEBHOOK_URL", "http://127.0.0.1:9/fuzz-webhook")
URL_KEYS = {"url", "webhookUrl"}


def _pin(value):
    if isinstance(value, dict):
        return {
            key: (LOOPBACK_URL if key in URL_KEYS and isinstance(item, str) else _pin(item))
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_pin(item) for item in value]
    return value


@schemathesis.hook
def before_call(context, case, kwargs):
    if isinstance(case.body, (dict, list)):
        case.body = _pin(case.body)
