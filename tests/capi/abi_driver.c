/*
 * abi_driver.c: the C ABI exercised from C, through the AnyProcApi table only.
 *
 * Built as a shared library exporting
 *   int anyproc_abi_driver(const AnyProcApi* api, char* report, size_t report_len);
 * which runs every check below and returns the number that failed, writing one
 * line per failure ("abi_driver.c:LINE: what") to report (always NUL-terminated
 * when report_len > 0).
 *
 * The Rust test that calls it registers two functions first:
 *   test.rust_reverse(str) -> str     the string reversed by characters
 *   test.ndarray_sum(ndarray) -> int  the sum of an integer array's elements
 * and checks afterwards (object census, valgrind) that every reference taken
 * here was released: each check releases what it owns on every path.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic -shared -fPIC -Iinclude \
 *      -o libabi_driver.so tests/capi/abi_driver.c
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "anyproc.h"

/* ========================================================================== */
/* Reporting                                                                  */
/* ========================================================================== */

typedef struct {
  const AnyProcApi* api;
  char* report;
  size_t report_len;
  size_t used;
  int failures;
} Driver;

/* Records one failed check, appending "abi_driver.c:LINE: message" to the report (truncated if full). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void fail_at(Driver* d, int line, const char* fmt, ...) {
  char message[512];
  va_list ap;
  int n;
  d->failures++;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  if (d->report == NULL || d->used + 1 >= d->report_len) return;
  n = snprintf(d->report + d->used, d->report_len - d->used, "abi_driver.c:%d: %s\n", line, message);
  if (n > 0) d->used += (size_t)n < d->report_len - d->used ? (size_t)n : d->report_len - d->used - 1;
}

#define CHECK(d, cond, ...)                            \
  do {                                                 \
    if (!(cond)) fail_at((d), __LINE__, __VA_ARGS__);  \
  } while (0)

/* The last error on this thread, never NULL. */
static const char* last_error(Driver* d) {
  const char* e = d->api->error_last();
  return e != NULL ? e : "(no message)";
}

/* Whether a table call succeeded; records a failure with the host's message if not. */
static int ok_at(Driver* d, int line, int32_t rc, const char* call) {
  if (rc == 0) return 1;
  fail_at(d, line, "%s returned %d: %s", call, (int)rc, last_error(d));
  return 0;
}
#define OK(d, call) ok_at((d), __LINE__, (call), #call)

/* Whether a table call failed, as it must; records a failure if it succeeded or left no message. */
static int fails_at(Driver* d, int line, int32_t rc, const char* call, const char* needle) {
  const char* e;
  if (rc != -1) {
    fail_at(d, line, "%s returned %d, expected -1", call, (int)rc);
    return 0;
  }
  e = d->api->error_last();
  if (e == NULL) {
    fail_at(d, line, "%s failed but error_last() is NULL", call);
    return 0;
  }
  if (needle != NULL && strstr(e, needle) == NULL) {
    fail_at(d, line, "%s failed with \"%s\", which does not mention \"%s\"", call, e, needle);
    return 0;
  }
  return 1;
}
#define FAILS(d, call, needle) fails_at((d), __LINE__, (call), #call, (needle))

/* Whether v is a string equal to expected (checked through str_get). */
static int str_equals_at(Driver* d, int line, const AnyProcAny* v, const char* expected, const char* what) {
  AnyProcAny holder = AnyProcAnyNone();
  const char* data = NULL;
  size_t len = 0;
  int same;
  if (d->api->str_get(v, &holder, &data, &len) != 0) {
    fail_at(d, line, "%s: str_get failed: %s", what, last_error(d));
    d->api->any_release(&holder);
    return 0;
  }
  same = len == strlen(expected) && (len == 0 || memcmp(data, expected, len) == 0);
  if (!same)
    fail_at(d, line, "%s: got \"%.*s\" (%d bytes), expected \"%s\"", what, (int)len, data != NULL ? data : "", (int)len,
            expected);
  d->api->any_release(&holder);
  return same;
}
#define STR_EQUALS(d, v, expected, what) str_equals_at((d), __LINE__, (v), (expected), (what))

/* Whether v is the int expected. */
static int int_equals_at(Driver* d, int line, const AnyProcAny* v, int64_t expected, const char* what) {
  if (v->type_index != ANYPROC_TYPE_INT) {
    fail_at(d, line, "%s: type index %d, expected int (%d)", what, (int)v->type_index, (int)ANYPROC_TYPE_INT);
    return 0;
  }
  if (v->payload.v_int64 != expected) {
    fail_at(d, line, "%s: got %lld, expected %lld", what, (long long)v->payload.v_int64, (long long)expected);
    return 0;
  }
  return 1;
}
#define INT_EQUALS(d, v, expected, what) int_equals_at((d), __LINE__, (v), (expected), (what))

/* ========================================================================== */
/* Strings through ops                                                        */
/* ========================================================================== */

/* The type index str_create must choose for len bytes: inline up to 8. */
static int32_t expected_str_type(size_t len) {
  return len <= 8 ? ANYPROC_TYPE_SMALL_STR : ANYPROC_TYPE_STR;
}

/* Calls op on a string made with str_create, and checks the string result. */
static void check_str_op_at(Driver* d, int line, AnyProcObject* op, const char* op_name, const char* input,
                            const char* expected) {
  AnyProcAny arg = AnyProcAnyNone();
  AnyProcAny result = AnyProcAnyNone();
  char what[160];
  snprintf(what, sizeof what, "%s(\"%s\")", op_name, input);
  if (!ok_at(d, line, d->api->str_create(input, strlen(input), &arg), "str_create")) return;
  if (arg.type_index != expected_str_type(strlen(input)))
    fail_at(d, line, "%s: str_create of %d bytes gave type index %d, expected %d", what, (int)strlen(input),
            (int)arg.type_index, (int)expected_str_type(strlen(input)));
  if (ok_at(d, line, d->api->func_call(op, &arg, 1, &result), what)) str_equals_at(d, line, &result, expected, what);
  d->api->any_release(&result);
  d->api->any_release(&arg);
}
#define CHECK_STR_OP(d, op, name, input, expected) check_str_op_at((d), __LINE__, (op), (name), (input), (expected))

/* Calls op on a borrowed string (RAW_STR, no allocation) and checks the result. */
static void check_borrowed_str_op_at(Driver* d, int line, AnyProcObject* op, const char* op_name, const char* input,
                                     const char* expected) {
  AnyProcAny arg = AnyProcAnyNone();
  AnyProcAny result = AnyProcAnyNone();
  char what[160];
  snprintf(what, sizeof what, "%s(borrowed \"%s\")", op_name, input);
  arg.type_index = ANYPROC_TYPE_RAW_STR;
  arg.small_len = (uint32_t)strlen(input);
  arg.payload.v_ptr = (void*)input;
  if (ok_at(d, line, d->api->func_call(op, &arg, 1, &result), what)) str_equals_at(d, line, &result, expected, what);
  d->api->any_release(&result);
}

static void check_text_lower(Driver* d) {
  AnyProcObject* lower = NULL;
  AnyProcAny arg;
  AnyProcAny result = AnyProcAnyNone();
  if (!OK(d, d->api->func_get_global("text.lower", &lower))) return;
  CHECK(d, lower != NULL && lower->type_index == ANYPROC_TYPE_FUNC, "text.lower is not a function object");

  CHECK_STR_OP(d, lower, "text.lower", "AbC", "abc");
  CHECK_STR_OP(d, lower, "text.lower", "ABCDEFGH", "abcdefgh");   /* 8 bytes: the last inline length */
  CHECK_STR_OP(d, lower, "text.lower", "ABCDEFGHI", "abcdefghi"); /* 9 bytes: the first heap length */
  CHECK_STR_OP(d, lower, "text.lower", "Hello, WORLD of Strings", "hello, world of strings");
  CHECK_STR_OP(d, lower, "text.lower", "", "");
  check_borrowed_str_op_at(d, __LINE__, lower, "text.lower", "Borrowed TEXT, not copied", "borrowed text, not copied");

  /* Wrong argument type and count. */
  arg = AnyProcAnyInt(42);
  FAILS(d, d->api->func_call(lower, &arg, 1, &result), "str");
  d->api->any_release(&result);
  FAILS(d, d->api->func_call(lower, NULL, 0, &result), NULL);
  d->api->any_release(&result);

  d->api->object_dec_ref(lower);
}

static void check_rust_reverse(Driver* d) {
  AnyProcObject* reverse = NULL;
  if (!OK(d, d->api->func_get_global("test.rust_reverse", &reverse))) return;
  CHECK_STR_OP(d, reverse, "test.rust_reverse", "abc", "cba");
  CHECK_STR_OP(d, reverse, "test.rust_reverse", "a\xc3\xb1" "b", "b\xc3\xb1" "a"); /* "añb": inline, 2-byte char */
  CHECK_STR_OP(d, reverse, "test.rust_reverse", "Hello, w\xc3\xb6rld of strings",
               "sgnirts fo dlr\xc3\xb6w ,olleH");
  check_borrowed_str_op_at(d, __LINE__, reverse, "test.rust_reverse", "borrowed", "deworrob");
  d->api->object_dec_ref(reverse);
}

/* ========================================================================== */
/* Values, strings and functions made from C                                  */
/* ========================================================================== */

static int g_resource_freed = 0;

static void free_resource(void* resource) {
  (void)resource;
  g_resource_freed++;
}

/* driver.add(x): x + *(int64_t*)resource. */
static int32_t add_resource(void* resource, const AnyProcAny* args, int32_t num_args, AnyProcAny* result) {
  if (num_args != 1 || args[0].type_index != ANYPROC_TYPE_INT) return -1; /* no error set: the host must cope */
  *result = AnyProcAnyInt(args[0].payload.v_int64 + *(const int64_t*)resource);
  return 0;
}

static void check_values_and_funcs(Driver* d) {
  static int64_t addend = 100;
  AnyProcObject* func = NULL;
  AnyProcAny arg;
  AnyProcAny result = AnyProcAnyNone();
  AnyProcAny copy = AnyProcAnyNone();
  AnyProcAny borrowed = AnyProcAnyNone();
  static const char text[] = "a borrowed string to copy";

  /* error_set / error_last round trip. */
  d->api->error_set("ValueError", "abi_driver: a message set from C");
  CHECK(d, strstr(last_error(d), "abi_driver: a message set from C") != NULL, "error_last() after error_set: \"%s\"",
        last_error(d));

  /* any_copy makes an owned string from a borrowed one. */
  borrowed.type_index = ANYPROC_TYPE_RAW_STR;
  borrowed.small_len = (uint32_t)strlen(text);
  borrowed.payload.v_ptr = (void*)text;
  if (OK(d, d->api->any_copy(&borrowed, &copy))) {
    CHECK(d, copy.type_index == ANYPROC_TYPE_STR, "any_copy of a borrowed string: type index %d, expected str",
          (int)copy.type_index);
    STR_EQUALS(d, &copy, text, "any_copy of a borrowed string");
    d->api->any_release(&copy);
    CHECK(d, copy.type_index == ANYPROC_TYPE_NONE, "any_release did not reset the value to None");
  }
  arg = AnyProcAnyFloat(2.5);
  if (OK(d, d->api->any_copy(&arg, &copy)))
    CHECK(d, copy.type_index == ANYPROC_TYPE_FLOAT && copy.payload.v_float64 == 2.5, "any_copy of 2.5");
  d->api->any_release(&copy);

  /* str_create: inline up to 8 bytes, invalid UTF-8 refused. */
  FAILS(d, d->api->str_create("\xff", 1, &copy), NULL);
  FAILS(d, d->api->str_create("ok \xc3", 4, &copy), NULL); /* truncated 2-byte character */

  /* A C callback with a resource: called through the table, and its deleter runs when the function goes. */
  FAILS(d, d->api->func_create(NULL, NULL, NULL, &func), NULL);
  g_resource_freed = 0;
  if (OK(d, d->api->func_create(add_resource, &addend, free_resource, &func))) {
    CHECK(d, func->type_index == ANYPROC_TYPE_FUNC, "func_create gave type index %u", (unsigned)func->type_index);
    arg = AnyProcAnyInt(23);
    if (OK(d, d->api->func_call(func, &arg, 1, &result))) INT_EQUALS(d, &result, 123, "C callback add(23)");
    d->api->any_release(&result);
    /* The callback returns -1 without setting an error: the call must still fail cleanly. */
    arg = AnyProcAnyFloat(1.0);
    FAILS(d, d->api->func_call(func, &arg, 1, &result), NULL);
    d->api->any_release(&result);
    d->api->object_inc_ref(func);
    d->api->object_dec_ref(func);
    CHECK(d, g_resource_freed == 0, "resource freed while the function is alive");
    d->api->object_dec_ref(func);
    CHECK(d, g_resource_freed == 1, "resource deleter ran %d times after the last reference went, expected 1",
          g_resource_freed);
  }
}

/* ========================================================================== */
/* Containers                                                                 */
/* ========================================================================== */

static void check_list(Driver* d) {
  static const char heap[] = "a string too long to be inline";
  AnyProcObject* list = NULL;
  AnyProcAny item = AnyProcAnyNone();
  AnyProcAny out = AnyProcAnyNone();
  int64_t size = -1;

  if (!OK(d, d->api->list_create(&list))) return;
  CHECK(d, list->type_index == ANYPROC_TYPE_LIST, "list_create gave type index %u", (unsigned)list->type_index);

  item = AnyProcAnyInt(7);
  OK(d, d->api->list_append(list, &item));
  if (OK(d, d->api->str_create("xy", 2, &item))) {
    OK(d, d->api->list_append(list, &item));
    d->api->any_release(&item);
  }
  if (OK(d, d->api->str_create(heap, strlen(heap), &item))) {
    OK(d, d->api->list_append(list, &item));
    d->api->any_release(&item); /* the list keeps its own reference */
  }
  item = AnyProcAnyBool(1);
  OK(d, d->api->list_append(list, &item));

  if (OK(d, d->api->list_size(list, &size))) CHECK(d, size == 4, "list_size: %lld, expected 4", (long long)size);
  if (OK(d, d->api->list_get_item(list, 0, &out))) INT_EQUALS(d, &out, 7, "list[0]");
  d->api->any_release(&out);
  if (OK(d, d->api->list_get_item(list, 1, &out))) STR_EQUALS(d, &out, "xy", "list[1]");
  d->api->any_release(&out);
  if (OK(d, d->api->list_get_item(list, 2, &out))) STR_EQUALS(d, &out, heap, "list[2]");
  d->api->any_release(&out);
  if (OK(d, d->api->list_get_item(list, -1, &out)))
    CHECK(d, out.type_index == ANYPROC_TYPE_BOOL && out.payload.v_int64 == 1, "list[-1]: expected True");
  d->api->any_release(&out);
  FAILS(d, d->api->list_get_item(list, 4, &out), NULL);
  d->api->any_release(&out);

  d->api->object_dec_ref(list);
}

/* dict[key_text] as an int, or -1 after recording a failure. */
static int64_t dict_int_at(Driver* d, int line, AnyProcObject* dict, const char* key_text) {
  AnyProcAny key = AnyProcAnyNone();
  AnyProcAny out = AnyProcAnyNone();
  int64_t value = -1;
  if (!ok_at(d, line, d->api->str_create(key_text, strlen(key_text), &key), "str_create(key)")) return -1;
  if (ok_at(d, line, d->api->dict_get_item(dict, &key, &out), key_text)) {
    if (out.type_index == ANYPROC_TYPE_INT)
      value = out.payload.v_int64;
    else
      fail_at(d, line, "dict[\"%s\"] has type index %d, expected int", key_text, (int)out.type_index);
  }
  d->api->any_release(&out);
  d->api->any_release(&key);
  return value;
}

/* dict[key_text] = value. */
static void dict_set_int(Driver* d, int line, AnyProcObject* dict, const char* key_text, int64_t value) {
  AnyProcAny key = AnyProcAnyNone();
  AnyProcAny v = AnyProcAnyInt(value);
  if (!ok_at(d, line, d->api->str_create(key_text, strlen(key_text), &key), "str_create(key)")) return;
  ok_at(d, line, d->api->dict_set_item(dict, &key, &v), "dict_set_item");
  d->api->any_release(&key);
}

static void check_dict(Driver* d) {
  static const char heap_key[] = "a key long enough for the heap";
  AnyProcObject* dict = NULL;
  AnyProcAny key = AnyProcAnyNone();
  AnyProcAny value = AnyProcAnyNone();
  int64_t size = -1;
  int64_t got;

  if (!OK(d, d->api->dict_create(&dict))) return;
  CHECK(d, dict->type_index == ANYPROC_TYPE_DICT, "dict_create gave type index %u", (unsigned)dict->type_index);

  dict_set_int(d, __LINE__, dict, "one", 1);
  dict_set_int(d, __LINE__, dict, heap_key, 2);
  key = AnyProcAnyInt(3);
  if (OK(d, d->api->str_create("three", 5, &value))) {
    OK(d, d->api->dict_set_item(dict, &key, &value));
    d->api->any_release(&value);
  }
  dict_set_int(d, __LINE__, dict, "one", 11); /* overwrites in place: still first */

  if (OK(d, d->api->dict_size(dict, &size))) CHECK(d, size == 3, "dict_size: %lld, expected 3", (long long)size);
  got = dict_int_at(d, __LINE__, dict, "one");
  CHECK(d, got == 11, "dict[\"one\"]: %lld, expected 11", (long long)got);
  got = dict_int_at(d, __LINE__, dict, heap_key);
  CHECK(d, got == 2, "dict[heap key]: %lld, expected 2", (long long)got);
  key = AnyProcAnyInt(3);
  if (OK(d, d->api->dict_get_item(dict, &key, &value))) STR_EQUALS(d, &value, "three", "dict[3]");
  d->api->any_release(&value);

  if (OK(d, d->api->dict_item_at(dict, 0, &key, &value))) {
    STR_EQUALS(d, &key, "one", "dict_item_at(0) key");
    INT_EQUALS(d, &value, 11, "dict_item_at(0) value");
  }
  d->api->any_release(&key);
  d->api->any_release(&value);
  if (OK(d, d->api->dict_item_at(dict, 2, &key, &value))) {
    INT_EQUALS(d, &key, 3, "dict_item_at(2) key");
    STR_EQUALS(d, &value, "three", "dict_item_at(2) value");
  }
  d->api->any_release(&key);
  d->api->any_release(&value);
  FAILS(d, d->api->dict_item_at(dict, 3, &key, &value), NULL);
  d->api->any_release(&key);
  d->api->any_release(&value);

  if (OK(d, d->api->str_create("missing", 7, &key))) {
    FAILS(d, d->api->dict_get_item(dict, &key, &value), NULL);
    d->api->any_release(&value);
    d->api->any_release(&key);
  }

  d->api->object_dec_ref(dict);
}

/* ========================================================================== */
/* NDArray and DLPack                                                         */
/* ========================================================================== */

/* The element at (row, col) of a 2-D int32 tensor, honouring strides and byte_offset. */
static int32_t* element_i32(const DLTensor* t, int64_t row, int64_t col) {
  int64_t s0 = t->strides != NULL ? t->strides[0] : t->shape[1];
  int64_t s1 = t->strides != NULL ? t->strides[1] : 1;
  return (int32_t*)((char*)t->data + t->byte_offset) + row * s0 + col * s1;
}

static void check_ndarray(Driver* d) {
  int64_t shape[2] = {2, 3};
  DLDataType int32;
  DLDevice cpu;
  AnyProcObject* array = NULL;
  AnyProcObject* back = NULL;
  AnyProcObject* sum = NULL;
  const DLTensor* t = NULL;
  DLManagedTensorVersioned* managed = NULL;
  void* first = NULL;
  AnyProcAny arg;
  AnyProcAny result = AnyProcAnyNone();
  int64_t r, c;

  int32.code = kDLInt;
  int32.bits = 32;
  int32.lanes = 1;
  cpu.device_type = kDLCPU;
  cpu.device_id = 0;

  if (!OK(d, d->api->ndarray_create(shape, 2, int32, cpu, &array))) return;
  CHECK(d, array->type_index == ANYPROC_TYPE_NDARRAY, "ndarray_create gave type index %u",
        (unsigned)array->type_index);
  if (!OK(d, d->api->ndarray_get_tensor(array, &t))) {
    d->api->object_dec_ref(array);
    return;
  }
  CHECK(d, t->ndim == 2 && t->shape[0] == 2 && t->shape[1] == 3, "tensor shape is not [2, 3]");
  CHECK(d, t->dtype.code == kDLInt && t->dtype.bits == 32 && t->dtype.lanes == 1, "tensor dtype is not int32");
  CHECK(d, t->device.device_type == kDLCPU && t->device.device_id == 0, "tensor device is not cpu:0");
  for (r = 0; r < 2; ++r)
    for (c = 0; c < 3; ++c) {
      CHECK(d, *element_i32(t, r, c) == 0, "new array not zero-filled at [%d, %d]", (int)r, (int)c);
      *element_i32(t, r, c) = (int32_t)((r * 3 + c) * 10);
    }
  first = element_i32(t, 0, 0);

  if (!OK(d, d->api->ndarray_to_dlpack(array, &managed))) {
    d->api->object_dec_ref(array);
    return;
  }
  /* The export keeps the data alive on its own. */
  d->api->object_dec_ref(array);
  array = NULL;
  CHECK(d, managed->version.major == DLPACK_MAJOR_VERSION, "exported DLPack major %u", (unsigned)managed->version.major);
  CHECK(d, managed->deleter != NULL, "exported tensor has no deleter");
  CHECK(d, (void*)element_i32(&managed->dl_tensor, 0, 0) == first, "export copied the data");
  CHECK(d, *element_i32(&managed->dl_tensor, 1, 2) == 50, "exported [1, 2] is %d, expected 50",
        (int)*element_i32(&managed->dl_tensor, 1, 2));

  /* The import takes managed over: on failure its deleter has already run. */
  if (!OK(d, d->api->ndarray_from_dlpack(managed, &back))) return;
  if (OK(d, d->api->ndarray_get_tensor(back, &t))) {
    CHECK(d, (void*)element_i32(t, 0, 0) == first, "import did not share the exported memory");
    for (r = 0; r < 2; ++r)
      for (c = 0; c < 3; ++c)
        CHECK(d, *element_i32(t, r, c) == (int32_t)((r * 3 + c) * 10), "imported [%d, %d] is %d, expected %d", (int)r,
              (int)c, (int)*element_i32(t, r, c), (int)((r * 3 + c) * 10));
  }

  if (OK(d, d->api->func_get_global("test.ndarray_sum", &sum))) {
    arg = AnyProcAnyFromObject(back); /* borrowed for the call */
    if (OK(d, d->api->func_call(sum, &arg, 1, &result))) INT_EQUALS(d, &result, 150, "test.ndarray_sum");
    d->api->any_release(&result);
    d->api->object_dec_ref(sum);
  }
  d->api->object_dec_ref(back);
}

/* ========================================================================== */
/* Lookups                                                                    */
/* ========================================================================== */

static void check_lookup_errors(Driver* d) {
  AnyProcObject* func = NULL;
  FAILS(d, d->api->func_get_global("no.such.op", &func), "no.such.op");
  if (func != NULL) {
    fail_at(d, __LINE__, "func_get_global(\"no.such.op\") wrote a handle");
    d->api->object_dec_ref(func);
    func = NULL;
  }
  FAILS(d, d->api->func_get_global(NULL, &func), NULL);
}

/* ========================================================================== */
/* Entry point                                                                */
/* ========================================================================== */

ANYPROC_PLUGIN_EXPORT int anyproc_abi_driver(const AnyProcApi* api, char* report, size_t report_len);

ANYPROC_PLUGIN_EXPORT int anyproc_abi_driver(const AnyProcApi* api, char* report, size_t report_len) {
  Driver d;
  d.api = api;
  d.report = report;
  d.report_len = report_len;
  d.used = 0;
  d.failures = 0;
  if (report != NULL && report_len > 0) report[0] = '\0';

  if (api == NULL) {
    fail_at(&d, __LINE__, "api is NULL");
    return d.failures;
  }
  if ((api->abi_version >> 16) != ANYPROC_ABI_VERSION_MAJOR || api->struct_size < sizeof(AnyProcApi)) {
    fail_at(&d, __LINE__, "host ABI %u.%u with a %u-byte table; this driver needs %u.x and %u bytes",
            (unsigned)(api->abi_version >> 16), (unsigned)(api->abi_version & 0xFFFFu), (unsigned)api->struct_size,
            (unsigned)ANYPROC_ABI_VERSION_MAJOR, (unsigned)sizeof(AnyProcApi));
    return d.failures;
  }

  check_text_lower(&d);
  check_rust_reverse(&d);
  check_values_and_funcs(&d);
  check_list(&d);
  check_dict(&d);
  check_ndarray(&d);
  check_lookup_errors(&d);
  return d.failures;
}
