/*
 * anyproc.h: the stable C ABI of anyproc.
 *
 * Plain C99; it needs only <stdint.h> and <stddef.h>, and compiles as C++ too.
 * Every layout here mirrors the Rust crate `anyproc-abi` (abi/src), which is the
 * single source of truth; tests/capi_layout.rs compiles a probe against this
 * header and fails on any size, offset or constant that differs from it.
 *
 * Calling convention (the "safe call"):
 *   - Every table function that can fail returns 0 on success and -1 on failure.
 *     On failure the message is kept in a thread-local slot: read it with
 *     `api->error_last()` before the next call on the same thread.
 *   - Arguments are borrowed: the callee never keeps or releases them.
 *   - Every value or handle written to an `out` parameter is a new reference
 *     owned by the caller, who releases it exactly once with `api->any_release`
 *     (values) or `api->object_dec_ref` (handles).
 *   - A callback (AnyProcCallback) follows the same rules from the other side:
 *     its `args` are borrowed, its `result` is an owned value it hands over, and
 *     it reports a failure with `api->error_set(kind, message)` and returns -1.
 *
 * Plugins: a plugin is a shared library that exports
 *   uint32_t AnyProcPluginAbiVersion(void);      (use ANYPROC_PLUGIN_DECLARE_ABI_VERSION())
 *   int AnyProcPluginInit(const AnyProcApi* api, AnyProcObject* module);
 * and calls the runtime only through the AnyProcApi table given to its init,
 * never through link-time symbols, so one plugin binary works in every host
 * that embeds anyproc (the CLI, the Python extension, a Rust program).
 * See examples/plugin-c for a complete plugin.
 */
#ifndef ANYPROC_H_
#define ANYPROC_H_

#include <stddef.h>
#include <stdint.h>

/* ========================================================================== */
/* Linkage and export macros                                                  */
/* ========================================================================== */

#ifdef __cplusplus
#define ANYPROC_EXTERN_C extern "C"
#else
#define ANYPROC_EXTERN_C
#endif

#if defined(_WIN32)
#define ANYPROC_DLL_EXPORT __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define ANYPROC_DLL_EXPORT __attribute__((visibility("default")))
#else
#define ANYPROC_DLL_EXPORT
#endif

/* Marks a function a host looks up by name (the plugin entry points). */
#define ANYPROC_PLUGIN_EXPORT ANYPROC_EXTERN_C ANYPROC_DLL_EXPORT

/* ========================================================================== */
/* ABI version                                                                */
/* ========================================================================== */

/* Bumped when a layout or a table entry changes incompatibly; a plugin built for another major is refused. */
#define ANYPROC_ABI_VERSION_MAJOR 1u
/* Bumped when entries are appended to the table; a plugin built for a newer minor is refused. */
#define ANYPROC_ABI_VERSION_MINOR 0u
/* major << 16 | minor: what AnyProcPluginAbiVersion returns and AnyProcApi.abi_version holds. */
#define ANYPROC_ABI_VERSION ((ANYPROC_ABI_VERSION_MAJOR << 16) | ANYPROC_ABI_VERSION_MINOR)

/* The names of the symbols a plugin exports. */
#define ANYPROC_PLUGIN_ABI_VERSION_SYMBOL "AnyProcPluginAbiVersion"
#define ANYPROC_PLUGIN_INIT_SYMBOL "AnyProcPluginInit"

/* ========================================================================== */
/* DLPack (v1.0)                                                              */
/* ========================================================================== */

/*
 * The DLPack structs, spelled exactly as dlpack.h spells them, so that code
 * including both headers (in either order) sees one definition. If dlpack.h
 * was included first its definitions are used (it must be v1.x: the table
 * needs DLManagedTensorVersioned); if it is included after, its include guard
 * (DLPACK_DLPACK_H_, defined here) makes it a no-op, so include dlpack.h first
 * when you need more of it than these structs.
 */
#if defined(DLPACK_DLPACK_H_) && !defined(DLPACK_MAJOR_VERSION)
#error "anyproc.h needs DLPack >= 1.0 (DLManagedTensorVersioned); an older dlpack.h was included first"
#endif

#ifndef DLPACK_MAJOR_VERSION
#define DLPACK_DLPACK_H_
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 0

#ifdef __cplusplus
extern "C" {
#endif

/* A DLPack version number. */
typedef struct {
  uint32_t major; /* bumped on ABI-breaking changes */
  uint32_t minor; /* bumped on compatible additions */
} DLPackVersion;

/* Where a tensor's memory lives. */
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17
} DLDeviceType;

/* A device: type and ordinal. */
typedef struct {
  DLDeviceType device_type; /* kDLCPU, kDLCUDA, ... (a 32-bit int) */
  int32_t device_id;        /* device ordinal; 0 for host memory */
} DLDevice;

/* Type codes of DLDataType.code. */
typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U
} DLDataTypeCode;

/* An element type: code, bits per lane, lanes. */
typedef struct {
  uint8_t code;   /* DLDataTypeCode */
  uint8_t bits;   /* bits per lane */
  uint16_t lanes; /* 1 for scalars */
} DLDataType;

/* A non-owning tensor description. */
typedef struct {
  void* data;           /* start of the data (before byte_offset) */
  DLDevice device;      /* where the data lives */
  int32_t ndim;         /* number of dimensions */
  DLDataType dtype;     /* element type */
  int64_t* shape;       /* ndim extents */
  int64_t* strides;     /* ndim strides in elements, or NULL for compact row-major */
  uint64_t byte_offset; /* bytes from data to the first element */
} DLTensor;

/* A tensor plus the means to release it (legacy capsule "dltensor"). */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;                             /* the tensor */
  void* manager_ctx;                              /* producer's context */
  void (*deleter)(struct DLManagedTensor* self);  /* called once by the consumer; may be NULL */
} DLManagedTensor;

/* DLManagedTensorVersioned.flags: the consumer must not write to the data. */
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
/* DLManagedTensorVersioned.flags: the producer copied the data for this export. */
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)

/* A versioned managed tensor with flags (capsule "dltensor_versioned"). */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;                                   /* the producer's DLPack version */
  void* manager_ctx;                                       /* producer's context */
  void (*deleter)(struct DLManagedTensorVersioned* self);  /* called once by the consumer; may be NULL */
  uint64_t flags;                                          /* DLPACK_FLAG_BITMASK_* */
  DLTensor dl_tensor;                                      /* the tensor */
} DLManagedTensorVersioned;

#ifdef __cplusplus
} /* extern "C" */
#endif
#endif /* DLPACK_MAJOR_VERSION */

#if DLPACK_MAJOR_VERSION != 1
#error "anyproc.h speaks DLPack 1.x"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ========================================================================== */
/* Type indices                                                               */
/* ========================================================================== */

/*
 * The kind of a value (AnyProcAny.type_index) or of an object
 * (AnyProcObject.type_index).
 *
 * Rationale: values stored inline come first so that "is this an object?" is
 * one comparison (index >= ANYPROC_TYPE_OBJECT_BEGIN); static object types
 * follow at 64, and dynamically registered ones start at 128.
 */
typedef enum {
  ANYPROC_TYPE_NONE = 0,          /* the absence of a value (Python's None) */
  ANYPROC_TYPE_INT = 1,           /* payload.v_int64 */
  ANYPROC_TYPE_BOOL = 2,          /* payload.v_int64, 0 or 1 */
  ANYPROC_TYPE_FLOAT = 3,         /* payload.v_float64 */
  ANYPROC_TYPE_OPAQUE_PTR = 4,    /* payload.v_ptr, not owned */
  ANYPROC_TYPE_DATA_TYPE = 5,     /* a DLDataType in the payload */
  ANYPROC_TYPE_DEVICE = 6,        /* a DLDevice in the payload */
  ANYPROC_TYPE_SMALL_STR = 7,     /* inline UTF-8 in payload.v_bytes; small_len bytes (<= 8) */
  ANYPROC_TYPE_SMALL_USTR = 8,    /* inline UCS4 in payload.v_char32; small_len code points (<= 2) */
  ANYPROC_TYPE_SMALL_BYTES = 9,   /* inline bytes in payload.v_bytes; small_len bytes (<= 8) */
  ANYPROC_TYPE_RAW_STR = 10,      /* borrowed UTF-8 (arguments only): v_ptr, small_len bytes */
  ANYPROC_TYPE_RAW_USTR = 11,     /* borrowed UCS4 (arguments only): v_ptr, small_len code points */
  ANYPROC_TYPE_RAW_BYTES = 12,    /* borrowed bytes (arguments only): v_ptr, small_len bytes */

  ANYPROC_TYPE_OBJECT_BEGIN = 64, /* first object index; every index at or above it is an object */
  ANYPROC_TYPE_OBJECT = 64,       /* the root of the object hierarchy */
  ANYPROC_TYPE_STR = 65,          /* heap UTF-8 string */
  ANYPROC_TYPE_USTR = 66,         /* heap UCS4 string */
  ANYPROC_TYPE_BYTES = 67,        /* heap byte string */
  ANYPROC_TYPE_LIST = 68,         /* list of values */
  ANYPROC_TYPE_DICT = 69,         /* insertion-ordered dict */
  ANYPROC_TYPE_FUNC = 70,         /* packed function */
  ANYPROC_TYPE_NDARRAY = 71,      /* n-dimensional array */
  ANYPROC_TYPE_ERROR = 72,        /* an error carried as a value */
  ANYPROC_TYPE_MODULE = 73,       /* a loaded module (plugin) */
  ANYPROC_TYPE_BOXED_INT = 74,    /* an int boxed as an object */
  ANYPROC_TYPE_BOXED_FLOAT = 75,  /* a float boxed as an object */
  ANYPROC_TYPE_BOXED_BOOL = 76,   /* a bool boxed as an object */
  ANYPROC_TYPE_SET = 77,          /* set of hashable values, in CPython's order */
  ANYPROC_TYPE_TUPLE = 78,        /* tuple: a list's layout that scripts cannot change */
  ANYPROC_TYPE_STATIC_END = 79,   /* one past the last static object index */
  ANYPROC_TYPE_DYNAMIC_BEGIN = 128 /* first index of dynamically registered object types */
} AnyProcTypeIndex;

/* ========================================================================== */
/* Objects                                                                    */
/* ========================================================================== */

/*
 * The 16-byte header every heap object starts with. Handles
 * (AnyProcObject*) are what the table's object functions take and return.
 *
 * Rationale: the count is atomic in the runtime; C code never touches it
 * directly but calls api->object_inc_ref / api->object_dec_ref.
 */
typedef struct AnyProcObject {
  uint32_t type_index;                          /* an ANYPROC_TYPE_* at or above OBJECT_BEGIN */
  uint32_t ref_count;                           /* strong references; change only through the API */
  void (*deleter)(struct AnyProcObject* self);  /* frees the object; set by whoever allocated it */
} AnyProcObject;

/* ========================================================================== */
/* Values                                                                     */
/* ========================================================================== */

/* The 8-byte payload of a value: which member is live depends on the type index. */
typedef union AnyProcPayload {
  int64_t v_int64;     /* INT, BOOL */
  double v_float64;    /* FLOAT */
  void* v_ptr;         /* objects (an AnyProcObject*), borrowed strings, opaque pointers */
  uint8_t v_bytes[8];  /* inline UTF-8 and byte strings */
  uint32_t v_char32[2]; /* inline UCS4 strings */
} AnyProcPayload;

/*
 * The universal 16-byte value: type index, small length, payload.
 *
 * Rationale: small strings live in the payload itself (small_len bytes), so
 * short tokens cost no allocation; an object value keeps its AnyProcObject*
 * in payload.v_ptr and, when owned, holds one reference to it.
 */
typedef struct AnyProcAny {
  int32_t type_index;     /* an ANYPROC_TYPE_* */
  uint32_t small_len;     /* length of an inline or borrowed string (bytes, or code points for UCS4) */
  AnyProcPayload payload; /* the value itself, or a pointer to it */
} AnyProcAny;

/* Compile-time checks of the layouts every host relies on (C99 has no static_assert). */
typedef char anyproc_check_any_size_[(sizeof(AnyProcAny) == 16) ? 1 : -1];
typedef char anyproc_check_object_size_[(sizeof(AnyProcObject) == 16) ? 1 : -1];
typedef char anyproc_check_int_size_[(sizeof(int) == 4) ? 1 : -1];

/* ========================================================================== */
/* Callbacks                                                                  */
/* ========================================================================== */

/*
 * A function implemented in C: reads num_args borrowed args, writes an owned
 * value to result; returns 0, or -1 after api->error_set. It may be called
 * from any thread, concurrently.
 */
typedef int32_t (*AnyProcCallback)(void* resource, const AnyProcAny* args, int32_t num_args,
                                   AnyProcAny* result);

/* Frees a callback's resource when its function object is freed. */
typedef void (*AnyProcResourceDeleter)(void* resource);

/* ========================================================================== */
/* The API table                                                              */
/* ========================================================================== */

/*
 * The runtime's functions, as handed to a plugin's init (and to any C code a
 * host calls). Every function is thread-safe.
 *
 * Rationale: entries are only ever appended (a minor version bump), never
 * reordered, so a plugin reads the entries it knows at fixed offsets;
 * struct_size tells it how many the host has.
 */
typedef struct AnyProcApi {
  /* ANYPROC_ABI_VERSION of the host. */
  uint32_t abi_version;
  /* sizeof(AnyProcApi) of the host; entries past what a plugin knows are appended, never reordered. */
  uint32_t struct_size;

  /* ---- errors ---- */
  /* The message of the last failed call on this thread (valid until the next call), or NULL. */
  const char* (*error_last)(void);
  /* Sets this thread's error (both strings are copied), for a callback about to return -1; kind is e.g. "ValueError" or NULL. */
  void (*error_set)(const char* kind, const char* message);

  /* ---- references and values ---- */
  /* Adds a reference to an object; NULL is ignored. */
  void (*object_inc_ref)(AnyProcObject* obj);
  /* Drops a reference to an object, freeing it at zero; NULL is ignored. */
  void (*object_dec_ref)(AnyProcObject* obj);
  /* Releases an owned value (drops its object reference, if any) and sets it to None. */
  void (*any_release)(AnyProcAny* value);
  /* Writes an owned copy of a borrowed value to out (borrowed strings are copied). */
  int32_t (*any_copy)(const AnyProcAny* value, AnyProcAny* out);

  /* ---- functions ---- */
  /* Writes a new reference to the global function registered under name to out. */
  int32_t (*func_get_global)(const char* name, AnyProcObject** out);
  /* Calls a function object with num_args borrowed args; writes the owned result to result. */
  int32_t (*func_call)(AnyProcObject* func, const AnyProcAny* args, int32_t num_args, AnyProcAny* result);
  /* Wraps a C callback as a function object (new reference in out); deleter(resource) runs when it is freed; on failure the resource stays the caller's. */
  int32_t (*func_create)(AnyProcCallback callback, void* resource, AnyProcResourceDeleter deleter,
                         AnyProcObject** out);
  /* Registers a function object globally (the registry takes its own reference); signature and doc may be NULL; a taken name is an error unless override_existing is nonzero. */
  int32_t (*func_register_global)(const char* name, const char* signature, const char* doc, AnyProcObject* func,
                                  int32_t override_existing);

  /* ---- strings ---- */
  /* Writes a string made from len bytes of UTF-8 to out (inline when it fits, else on the heap); invalid UTF-8 is an error. */
  int32_t (*str_create)(const char* data, size_t len, AnyProcAny* out);
  /* Points data/len at the UTF-8 bytes of a string value (not NUL-terminated; alive as long as *value and *holder); UCS4 strings are converted into holder (may be NULL for UTF-8 values), which the caller releases. */
  int32_t (*str_get)(const AnyProcAny* value, AnyProcAny* holder, const char** data, size_t* len);

  /* ---- lists ---- */
  /* Writes a new empty list to out. */
  int32_t (*list_create)(AnyProcObject** out);
  /* Appends a copy of the borrowed item. */
  int32_t (*list_append)(AnyProcObject* list, const AnyProcAny* item);
  /* Writes the number of items of a list or a tuple to out. */
  int32_t (*list_size)(AnyProcObject* list, int64_t* out);
  /* Writes an owned copy of the item of a list or a tuple at index (negative counts from the
     end) to out. */
  int32_t (*list_get_item)(AnyProcObject* list, int64_t index, AnyProcAny* out);

  /* ---- dicts ---- */
  /* Writes a new empty dict to out. */
  int32_t (*dict_create)(AnyProcObject** out);
  /* Sets dict[key] = value, copying both. */
  int32_t (*dict_set_item)(AnyProcObject* dict, const AnyProcAny* key, const AnyProcAny* value);
  /* Writes an owned copy of dict[key] to out; a missing key is a KeyError. */
  int32_t (*dict_get_item)(AnyProcObject* dict, const AnyProcAny* key, AnyProcAny* out);
  /* Writes the number of entries to out. */
  int32_t (*dict_size)(AnyProcObject* dict, int64_t* out);
  /* Writes owned copies of the index-th entry's key and value (insertion order). */
  int32_t (*dict_item_at)(AnyProcObject* dict, int64_t index, AnyProcAny* key_out, AnyProcAny* value_out);

  /* ---- arrays ---- */
  /* Writes a new zero-filled, compact (row-major) NDArray in host memory to out. */
  int32_t (*ndarray_create)(const int64_t* shape, int32_t ndim, DLDataType dtype, DLDevice device,
                            AnyProcObject** out);
  /* Points out at the array's DLTensor, borrowed for as long as the array is alive. */
  int32_t (*ndarray_get_tensor)(AnyProcObject* array, const DLTensor** out);
  /* Exports the array as DLPack, sharing memory; the consumer calls its deleter exactly once. */
  int32_t (*ndarray_to_dlpack)(AnyProcObject* array, DLManagedTensorVersioned** out);
  /* Imports a DLPack tensor, sharing memory; the array owns managed, and on failure its deleter has already run. */
  int32_t (*ndarray_from_dlpack)(DLManagedTensorVersioned* managed, AnyProcObject** out);

  /* ---- modules ---- */
  /* Loads a plugin (new module reference in out); loading the same file again returns the module already loaded. */
  int32_t (*module_load)(const char* path, int32_t override_existing, AnyProcObject** out);
} AnyProcApi;

/* ========================================================================== */
/* Plugin entry points                                                        */
/* ========================================================================== */

/* uint32_t AnyProcPluginAbiVersion(void): the ANYPROC_ABI_VERSION the plugin was built for. */
typedef uint32_t (*AnyProcPluginAbiVersionFn)(void);
/* int AnyProcPluginInit(api, module): called once on load; keeps api, registers the ops; 0 or -1. */
typedef int (*AnyProcPluginInitFn)(const AnyProcApi* api, AnyProcObject* module);

/*
 * Defines AnyProcPluginAbiVersion, returning the ABI version this header
 * describes. Use it once, at file scope, in the plugin:
 *     ANYPROC_PLUGIN_DECLARE_ABI_VERSION();
 * (The trailing declaration absorbs the semicolon, which ISO C would reject
 * after a function body under -pedantic.)
 */
#define ANYPROC_PLUGIN_DECLARE_ABI_VERSION()                                  \
  ANYPROC_PLUGIN_EXPORT uint32_t AnyProcPluginAbiVersion(void);               \
  ANYPROC_PLUGIN_EXPORT uint32_t AnyProcPluginAbiVersion(void) {              \
    return ANYPROC_ABI_VERSION;                                               \
  }                                                                           \
  ANYPROC_PLUGIN_EXPORT uint32_t AnyProcPluginAbiVersion(void)

/* ========================================================================== */
/* Value helpers                                                              */
/* ========================================================================== */

/* None. */
static inline AnyProcAny AnyProcAnyNone(void) {
  AnyProcAny v;
  v.type_index = ANYPROC_TYPE_NONE;
  v.small_len = 0;
  v.payload.v_int64 = 0;
  return v;
}

/* An int. */
static inline AnyProcAny AnyProcAnyInt(int64_t x) {
  AnyProcAny v = AnyProcAnyNone();
  v.type_index = ANYPROC_TYPE_INT;
  v.payload.v_int64 = x;
  return v;
}

/* A float. */
static inline AnyProcAny AnyProcAnyFloat(double x) {
  AnyProcAny v = AnyProcAnyNone();
  v.type_index = ANYPROC_TYPE_FLOAT;
  v.payload.v_float64 = x;
  return v;
}

/* A bool (any nonzero x is true). */
static inline AnyProcAny AnyProcAnyBool(int x) {
  AnyProcAny v = AnyProcAnyNone();
  v.type_index = ANYPROC_TYPE_BOOL;
  v.payload.v_int64 = x != 0;
  return v;
}

/*
 * A value holding the object obj (None if obj is NULL), with the type index
 * read from its header. No reference is added: the value borrows obj, or,
 * when handed over as an owned value (a callback's result), carries the
 * reference the caller owned.
 */
static inline AnyProcAny AnyProcAnyFromObject(AnyProcObject* obj) {
  AnyProcAny v = AnyProcAnyNone();
  if (obj != NULL) {
    v.type_index = (int32_t)obj->type_index;
    v.payload.v_ptr = obj;
  }
  return v;
}

/* Whether v holds an object (its payload.v_ptr is then an AnyProcObject*). */
static inline int AnyProcAnyIsObject(const AnyProcAny* v) {
  return v->type_index >= ANYPROC_TYPE_OBJECT_BEGIN;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ANYPROC_H_ */
