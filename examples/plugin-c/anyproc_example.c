/*
 * anyproc_example.c: an anyproc plugin in plain C99.
 *
 * It talks to the host only through the AnyProcApi table handed to its init
 * (no link-time dependency on anyproc), and registers four ops:
 *   example_c.upper_ascii(str) -> str      ASCII letters upper-cased, other bytes unchanged
 *   example_c.char_histogram(str) -> dict  each character (as a 1-char str) -> its count
 *   example_c.fail(str) -> None            always fails with a ValueError naming the text
 *   example_c.iota(int n) -> ndarray       int64 array [0, 1, ..., n-1]
 *
 * Build (see README.md):
 *   cc -std=c99 -O2 -shared -fPIC -I../../include -o libanyproc_example_c.so anyproc_example.c
 *
 * Ownership, as everywhere in the ABI: arguments are borrowed; whatever a table
 * function writes to an out parameter is ours and released exactly once; the
 * value written to `result` is handed over to the host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anyproc.h"

ANYPROC_PLUGIN_DECLARE_ABI_VERSION();

/* The host's table, kept by init; the host outlives every call into this plugin. */
static const AnyProcApi* g_api = NULL;

/* Reports an error for the current call and returns -1 (error_set copies both strings). */
static int32_t fail_with(const char* kind, const char* message) {
  g_api->error_set(kind, message);
  return -1;
}

/* Reports a wrong number of arguments. */
static int32_t arity_error(const char* op, int32_t expected, int32_t got) {
  char message[160];
  snprintf(message, sizeof message, "%s takes %d argument%s, got %d", op, (int)expected, expected == 1 ? "" : "s",
           (int)got);
  return fail_with("ArityError", message);
}

/* ========================================================================== */
/* example_c.upper_ascii                                                      */
/* ========================================================================== */

/*
 * The op's resource: its name, used in error messages. Read-only once made,
 * because callbacks run concurrently on the host's worker threads.
 * Rationale: it is here to exercise the resource/deleter path; the host frees
 * it with upper_ascii_free when the function object goes.
 */
typedef struct {
  char name[64];
} UpperAsciiResource;

static void upper_ascii_free(void* resource) {
  free(resource);
}

static int32_t upper_ascii(void* resource, const AnyProcAny* args, int32_t num_args, AnyProcAny* result) {
  const UpperAsciiResource* self = (const UpperAsciiResource*)resource;
  AnyProcAny holder = AnyProcAnyNone();
  const char* data = NULL;
  size_t len = 0;
  size_t i;
  char small[64];
  char* buf;
  int32_t rc;

  if (num_args != 1) return arity_error(self->name, 1, num_args);
  /* data points into args[0] (an inline string), its heap object, or holder (a converted UCS4 string). */
  if (g_api->str_get(&args[0], &holder, &data, &len) != 0) {
    g_api->any_release(&holder);
    return -1;
  }
  buf = len <= sizeof small ? small : (char*)malloc(len);
  if (buf == NULL) {
    g_api->any_release(&holder);
    return fail_with("RuntimeError", "example_c.upper_ascii: out of memory");
  }
  for (i = 0; i < len; ++i) {
    char c = data[i];
    buf[i] = (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
  }
  g_api->any_release(&holder); /* data is not read past this point */
  /* Only ASCII letters changed, so the bytes are still valid UTF-8; short results come back inline. */
  rc = g_api->str_create(buf, len, result);
  if (buf != small) free(buf);
  return rc;
}

/* ========================================================================== */
/* example_c.char_histogram                                                   */
/* ========================================================================== */

/* The byte length of the UTF-8 character starting with lead byte b (the text is valid UTF-8). */
static size_t utf8_char_len(unsigned char b) {
  if (b < 0x80) return 1;
  if ((b & 0xE0) == 0xC0) return 2;
  if ((b & 0xF0) == 0xE0) return 3;
  return 4;
}

static int32_t char_histogram(void* resource, const AnyProcAny* args, int32_t num_args, AnyProcAny* result) {
  AnyProcAny holder = AnyProcAnyNone();
  AnyProcObject* dict = NULL;
  const char* data = NULL;
  size_t len = 0;
  size_t i = 0;

  (void)resource;
  if (num_args != 1) return arity_error("example_c.char_histogram", 1, num_args);
  if (g_api->str_get(&args[0], &holder, &data, &len) != 0) {
    g_api->any_release(&holder);
    return -1;
  }
  if (g_api->dict_create(&dict) != 0) {
    g_api->any_release(&holder);
    return -1;
  }
  while (i < len) {
    size_t n = utf8_char_len((unsigned char)data[i]);
    AnyProcAny key;
    AnyProcAny count;
    int64_t seen = 0;
    int32_t rc;

    if (n > len - i) n = len - i;
    if (g_api->str_create(data + i, n, &key) != 0) goto fail;
    /* A miss is a KeyError (the only way this lookup fails): the character is new. */
    if (g_api->dict_get_item(dict, &key, &count) == 0) {
      if (count.type_index == ANYPROC_TYPE_INT) seen = count.payload.v_int64;
      g_api->any_release(&count);
    }
    count = AnyProcAnyInt(seen + 1);
    rc = g_api->dict_set_item(dict, &key, &count); /* copies key and value */
    g_api->any_release(&key);
    if (rc != 0) goto fail;
    i += n;
  }
  g_api->any_release(&holder);
  /* The reference from dict_create moves into the result: no dec_ref here. */
  *result = AnyProcAnyFromObject(dict);
  return 0;

fail:
  g_api->object_dec_ref(dict);
  g_api->any_release(&holder);
  return -1;
}

/* ========================================================================== */
/* example_c.fail                                                             */
/* ========================================================================== */

static int32_t op_fail(void* resource, const AnyProcAny* args, int32_t num_args, AnyProcAny* result) {
  static const char prefix[] = "example_c.fail was asked to fail on '";
  AnyProcAny holder = AnyProcAnyNone();
  const char* data = NULL;
  size_t len = 0;
  char* message;

  (void)resource;
  (void)result;
  if (num_args != 1) return arity_error("example_c.fail", 1, num_args);
  if (g_api->str_get(&args[0], &holder, &data, &len) != 0) {
    g_api->any_release(&holder);
    return -1;
  }
  message = (char*)malloc(sizeof prefix + len + 1); /* prefix (with its NUL) + text + quote */
  if (message == NULL) {
    g_api->any_release(&holder);
    return fail_with("RuntimeError", "example_c.fail: out of memory");
  }
  memcpy(message, prefix, sizeof prefix - 1);
  memcpy(message + sizeof prefix - 1, data, len);
  message[sizeof prefix - 1 + len] = '\'';
  message[sizeof prefix + len] = '\0';
  g_api->any_release(&holder);
  fail_with("ValueError", message);
  free(message);
  return -1;
}

/* ========================================================================== */
/* example_c.iota                                                             */
/* ========================================================================== */

static int32_t iota(void* resource, const AnyProcAny* args, int32_t num_args, AnyProcAny* result) {
  AnyProcObject* array = NULL;
  const DLTensor* tensor = NULL;
  DLDataType dtype;
  DLDevice device;
  int64_t n;
  int64_t i;
  int64_t stride;
  int64_t* out;

  (void)resource;
  if (num_args != 1) return arity_error("example_c.iota", 1, num_args);
  if (args[0].type_index != ANYPROC_TYPE_INT) return fail_with("TypeError", "example_c.iota: argument 0 (n): expected int");
  n = args[0].payload.v_int64;
  if (n < 0) {
    char message[96];
    snprintf(message, sizeof message, "example_c.iota: n must be >= 0, got %lld", (long long)n);
    return fail_with("ValueError", message);
  }
  dtype.code = kDLInt;
  dtype.bits = 64;
  dtype.lanes = 1;
  device.device_type = kDLCPU;
  device.device_id = 0;
  if (g_api->ndarray_create(&n, 1, dtype, device, &array) != 0) return -1;
  if (g_api->ndarray_get_tensor(array, &tensor) != 0) {
    g_api->object_dec_ref(array);
    return -1;
  }
  out = (int64_t*)((char*)tensor->data + tensor->byte_offset);
  stride = tensor->strides != NULL ? tensor->strides[0] : 1;
  for (i = 0; i < n; ++i) out[i * stride] = i;
  /* The reference from ndarray_create moves into the result. */
  *result = AnyProcAnyFromObject(array);
  return 0;
}

/* ========================================================================== */
/* Entry point                                                                */
/* ========================================================================== */

/* Wraps callback as a function object and registers it as name; 0 or -1. */
static int32_t register_op(const char* name, const char* signature, const char* doc, AnyProcCallback callback,
                           void* resource, AnyProcResourceDeleter deleter) {
  AnyProcObject* func = NULL;
  int32_t rc;

  if (g_api->func_create(callback, resource, deleter, &func) != 0) {
    /* No function object was made, so the resource is still ours to free. */
    if (deleter != NULL) deleter(resource);
    return -1;
  }
  rc = g_api->func_register_global(name, signature, doc, func, 0);
  /* The registry took its own reference on success; on failure this frees the function (and its resource). */
  g_api->object_dec_ref(func);
  return rc;
}

ANYPROC_PLUGIN_EXPORT int AnyProcPluginInit(const AnyProcApi* api, AnyProcObject* module);

ANYPROC_PLUGIN_EXPORT int AnyProcPluginInit(const AnyProcApi* api, AnyProcObject* module) {
  UpperAsciiResource* upper;

  (void)module;
  /* The host checks AnyProcPluginAbiVersion before calling init; this guards hosts that do not. */
  if (api == NULL || (api->abi_version >> 16) != ANYPROC_ABI_VERSION_MAJOR) return -1;
  if (api->struct_size < sizeof(AnyProcApi)) {
    api->error_set("RuntimeError", "example_c: the host's API table is older than this plugin");
    return -1;
  }
  g_api = api;

  upper = (UpperAsciiResource*)malloc(sizeof *upper);
  if (upper == NULL) return fail_with("RuntimeError", "example_c: out of memory");
  strcpy(upper->name, "example_c.upper_ascii");
  if (register_op("example_c.upper_ascii", "(str) -> str", "ASCII letters upper-cased; other bytes unchanged.",
                  upper_ascii, upper, upper_ascii_free) != 0)
    return -1;
  if (register_op("example_c.char_histogram", "(str) -> dict", "Each character of the text mapped to its count.",
                  char_histogram, NULL, NULL) != 0)
    return -1;
  if (register_op("example_c.fail", "(str) -> None", "Always fails with a ValueError naming the text.", op_fail,
                  NULL, NULL) != 0)
    return -1;
  return register_op("example_c.iota", "(int) -> ndarray", "An int64 array holding 0, 1, ..., n-1.", iota, NULL,
                     NULL);
}
