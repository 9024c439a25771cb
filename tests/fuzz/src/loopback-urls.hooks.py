# Schemathesis hooks of the fuzz suite (loaded through SCHEMATHESIS_HOOKS).
#
# In: every request case just before it is sent. Out: the same case with each string under a
# `url` or `webhookUrl` key of its JSON body (at any depth) replaced by the suite's webhook
# receiver on 127.0.0.1 (LONGHAUL_FUZZ_WEBHOOK_URL; a closed loopback port without it). The api
# checks webhook URLs by resolving their host, and the notifier calls them when a job ends:
# generated host names must never reach a resolver or the network. The services run with loopback
# and http webhook URLs allowed, so such bodies still pass and exercise the paths that store and
# deliver webhooks, here.
#
# Also: a revoke or a rotation of the fuzzer's own API key (LONGHAUL_FUZZ_API_KEY_ID) is sent for
# a random id instead. The fuzzer finds its key's id in `GET /v1/api-keys` and may follow that to
# `POST /v1/api-keys/{id}/revoke` or `/rotate`; revoked (or replaced), every later request would
# be answered 401, which the document allows, so the run would pass having tested nothing more.
import os
import uuid

import schemathesis

LOOPBACK_URL = os.environ.get("LONGHAUL_FUZZ_WEBHOOK_URL", "http://127.0.0.1:9/fuzz-webhook")
URL_KEYS = {"url", "webhookUrl"}
OWN_KEY_ID = os.environ.get("LONGHAUL_FUZZ_API_KEY_ID", "")
ENDING_PATHS = {"/v1/api-keys/{id}/revoke", "/v1/api-keys/{id}/rotate"}


def _pin(value):
    if isinstance(value, dict):
        return {
            key: (LOOPBACK_URL if key in URL_KEYS and isinstance(item, str) else _pin(item))
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_pin(item) for item in value]
    return value


def _spare_own_key(case):
    params = case.path_parameters
    if OWN_KEY_ID and case.operation.path in ENDING_PATHS and params and str(params.get("id", "")).lower() == OWN_KEY_ID:
        params["id"] = str(uuid.uuid4())


@schemathesis.hook
def before_call(context, case, kwargs):
    if isinstance(case.body, (dict, list)):
        case.body = _pin(case.body)
    _spare_own_key(case)
