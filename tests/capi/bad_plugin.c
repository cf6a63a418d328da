/*
 * bad_plugin.c: broken plugins, for testing how the loader refuses them.
 * Build one variant per library with exactly one of these defined:
 *
 *   -DBAD_NO_INIT         exports AnyProcPluginAbiVersion but no AnyProcPluginInit
 *   -DBAD_NO_VERSION      exports AnyProcPluginInit but no AnyProcPluginAbiVersion
 *                         (its init registers bad_plugin.unversioned: the loader must not call it)
 *   -DBAD_ABI_VERSION     AnyProcPluginAbiVersion returns (ANYPROC_ABI_VERSION_MAJOR + 1) << 16
 *                         (its init registers bad_plugin.wrong_abi: the loader must not call it)
 *   -DBAD_INIT_FAILS      init registers bad_plugin.partial, then fails with
 *                         ValueError "bad_plugin: init refused to start" (the loader rolls back)
 *   -DBAD_NULL_CALLBACK   init calls func_create(NULL, NULL, NULL, &f), which must fail,
 *                         and returns -1 with the host's error (0 if the host wrongly accepted it)
 *   -DBAD_DUPLICATE       init registers example_c.upper_ascii (taken by examples/plugin-c)
 *                         with override_existing = 0 and returns the result
 *
 * e.g. cc -std=c99 -shared -fPIC -Iinclude -DBAD_INIT_FAILS -o libbad_init_fails.so tests/capi/bad_plugin.c
 */
#include <stddef.h>

#include "anyproc.h"

#if defined(BAD_NO_INIT) + defined(BAD_NO_VERSION) + defined(BAD_ABI_VERSION) + defined(BAD_INIT_FAILS) + \
        defined(BAD_NULL_CALLBACK) + defined(BAD_DUPLICATE) != 1
#error "define exactly one of BAD_NO_INIT, BAD_NO_VERSION, BAD_ABI_VERSION, BAD_INIT_FAILS, BAD_NULL_CALLBACK, BAD_DUPLICATE"
#endif

#if !defined(BAD_NO_INIT) && !defined(BAD_NULL_CALLBACK)
/* A callback for the ops the variants register: returns its argument count. */
static int32_t count_args(void* resource, const AnyProcAny* args, int32_t num_args, AnyProcAny* result) {
  (void)resource;
  (void)args;
  *result = AnyProcAnyInt(num_args);
  return 0;
}

/* Registers count_args as name; returns the registration's result. */
static int32_t register_op(const AnyProcApi* api, const char* name, int32_t override_existing) {
  AnyProcObject* func = NULL;
  int32_t rc;
  if (api->func_create(count_args, NULL, NULL, &func) != 0) return -1;
  rc = api->func_register_global(name, "(...) -> int", "bad_plugin: the number of arguments.", func,
                                 override_existing);
  api->object_dec_ref(func);
  return rc;
}
#endif

/* ---- AnyProcPluginAbiVersion ---- */

#if defined(BAD_ABI_VERSION)
ANYPROC_PLUGIN_EXPORT uint32_t AnyProcPluginAbiVersion(void);
ANYPROC_PLUGIN_EXPORT uint32_t AnyProcPluginAbiVersion(void) {
  return (ANYPROC_ABI_VERSION_MAJOR + 1) << 16;
}
#elif !defined(BAD_NO_VERSION)
ANYPROC_PLUGIN_DECLARE_ABI_VERSION();
#endif

/* ---- AnyProcPluginInit ---- */

#if !defined(BAD_NO_INIT)
ANYPROC_PLUGIN_EXPORT int AnyProcPluginInit(const AnyProcApi* api, AnyProcObject* module);

ANYPROC_PLUGIN_EXPORT int AnyProcPluginInit(const AnyProcApi* api, AnyProcObject* module) {
  (void)module;
#if defined(BAD_NO_VERSION)
  return register_op(api, "bad_plugin.unversioned", 0);
#elif defined(BAD_ABI_VERSION)
  return register_op(api, "bad_plugin.wrong_abi", 0);
#elif defined(BAD_INIT_FAILS)
  if (register_op(api, "bad_plugin.partial", 0) != 0) return -1;
  api->error_set("ValueError", "bad_plugin: init refused to start");
  return -1;
#elif defined(BAD_NULL_CALLBACK)
  {
    AnyProcObject* func = NULL;
    if (api->func_create(NULL, NULL, NULL, &func) != 0) return -1; /* the host's error stands */
    api->object_dec_ref(func);
    return 0;
  }
#elif defined(BAD_DUPLICATE)
  return register_op(api, "example_c.upper_ascii", 0);
#endif
}
#else
/* Something exported, so the library is not empty apart from the version. */
ANYPROC_PLUGIN_EXPORT int bad_plugin_has_no_init(void);
ANYPROC_PLUGIN_EXPORT int bad_plugin_has_no_init(void) {
  return 1;
}
#endif
