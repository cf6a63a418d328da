/*
 * layout_probe.c: prints every layout fact of include/anyproc.h, one per line,
 * as `key=value`:
 *   sizeof.T, alignof.T           size and alignment of a type
 *   offsetof.T.field              offset of a field
 *   sizeof.T.field                size of a field
 *   const.NAME                    an integer constant
 *   str.NAME                      a string constant
 *
 * tests/capi_layout.rs compiles and runs it, then compares every line with the
 * same fact computed from the Rust definitions in abi/src: a key on one side
 * only is a failure too, so a field added to either side must be added here.
 */
#include <stdio.h>

#include "anyproc.h"

#define SIZEOF(T) printf("sizeof.%s=%llu\n", #T, (unsigned long long)sizeof(T))

/* C99 has no _Alignof: the offset of T after a char is its alignment. */
#define ALIGNOF(T)                                                              \
  do {                                                                          \
    struct probe_align { char c; T t; };                                        \
    printf("alignof.%s=%llu\n", #T, (unsigned long long)offsetof(struct probe_align, t)); \
  } while (0)

#define FIELD(T, f)                                                                              \
  do {                                                                                           \
    printf("offsetof.%s.%s=%llu\n", #T, #f, (unsigned long long)offsetof(T, f));                 \
    printf("sizeof.%s.%s=%llu\n", #T, #f, (unsigned long long)sizeof(((T*)0)->f));               \
  } while (0)

#define CONST_SIGNED(c) printf("const.%s=%lld\n", #c, (long long)(c))
#define CONST_UNSIGNED(c) printf("const.%s=%llu\n", #c, (unsigned long long)(c))
#define CONST_STR(c) printf("str.%s=%s\n", #c, c)

static void values(void) {
  SIZEOF(AnyProcAny);
  ALIGNOF(AnyProcAny);
  FIELD(AnyProcAny, type_index);
  FIELD(AnyProcAny, small_len);
  FIELD(AnyProcAny, payload);

  SIZEOF(AnyProcPayload);
  ALIGNOF(AnyProcPayload);
  FIELD(AnyProcPayload, v_int64);
  FIELD(AnyProcPayload, v_float64);
  FIELD(AnyProcPayload, v_ptr);
  FIELD(AnyProcPayload, v_bytes);
  FIELD(AnyProcPayload, v_char32);

  SIZEOF(AnyProcObject);
  ALIGNOF(AnyProcObject);
  FIELD(AnyProcObject, type_index);
  FIELD(AnyProcObject, ref_count);
  FIELD(AnyProcObject, deleter);
}

static void dlpack(void) {
  SIZEOF(DLPackVersion);
  ALIGNOF(DLPackVersion);
  FIELD(DLPackVersion, major);
  FIELD(DLPackVersion, minor);

  SIZEOF(DLDeviceType); /* the enum type of DLDevice.device_type: must be 32 bits */
  SIZEOF(DLDevice);
  ALIGNOF(DLDevice);
  FIELD(DLDevice, device_type);
  FIELD(DLDevice, device_id);

  SIZEOF(DLDataType);
  ALIGNOF(DLDataType);
  FIELD(DLDataType, code);
  FIELD(DLDataType, bits);
  FIELD(DLDataType, lanes);

  SIZEOF(DLTensor);
  ALIGNOF(DLTensor);
  FIELD(DLTensor, data);
  FIELD(DLTensor, device);
  FIELD(DLTensor, ndim);
  FIELD(DLTensor, dtype);
  FIELD(DLTensor, shape);
  FIELD(DLTensor, strides);
  FIELD(DLTensor, byte_offset);

  SIZEOF(DLManagedTensor);
  ALIGNOF(DLManagedTensor);
  FIELD(DLManagedTensor, dl_tensor);
  FIELD(DLManagedTensor, manager_ctx);
  FIELD(DLManagedTensor, deleter);

  SIZEOF(DLManagedTensorVersioned);
  ALIGNOF(DLManagedTensorVersioned);
  FIELD(DLManagedTensorVersioned, version);
  FIELD(DLManagedTensorVersioned, manager_ctx);
  FIELD(DLManagedTensorVersioned, deleter);
  FIELD(DLManagedTensorVersioned, flags);
  FIELD(DLManagedTensorVersioned, dl_tensor);
}

static void api(void) {
  SIZEOF(AnyProcApi);
  ALIGNOF(AnyProcApi);
  FIELD(AnyProcApi, abi_version);
  FIELD(AnyProcApi, struct_size);
  FIELD(AnyProcApi, error_last);
  FIELD(AnyProcApi, error_set);
  FIELD(AnyProcApi, object_inc_ref);
  FIELD(AnyProcApi, object_dec_ref);
  FIELD(AnyProcApi, any_release);
  FIELD(AnyProcApi, any_copy);
  FIELD(AnyProcApi, func_get_global);
  FIELD(AnyProcApi, func_call);
  FIELD(AnyProcApi, func_create);
  FIELD(AnyProcApi, func_register_global);
  FIELD(AnyProcApi, str_create);
  FIELD(AnyProcApi, str_get);
  FIELD(AnyProcApi, list_create);
  FIELD(AnyProcApi, list_append);
  FIELD(AnyProcApi, list_size);
  FIELD(AnyProcApi, list_get_item);
  FIELD(AnyProcApi, dict_create);
  FIELD(AnyProcApi, dict_set_item);
  FIELD(AnyProcApi, dict_get_item);
  FIELD(AnyProcApi, dict_size);
  FIELD(AnyProcApi, dict_item_at);
  FIELD(AnyProcApi, ndarray_create);
  FIELD(AnyProcApi, ndarray_get_tensor);
  FIELD(AnyProcApi, ndarray_to_dlpack);
  FIELD(AnyProcApi, ndarray_from_dlpack);
  FIELD(AnyProcApi, module_load);
}

static void constants(void) {
  CONST_SIGNED(ANYPROC_TYPE_NONE);
  CONST_SIGNED(ANYPROC_TYPE_INT);
  CONST_SIGNED(ANYPROC_TYPE_BOOL);
  CONST_SIGNED(ANYPROC_TYPE_FLOAT);
  CONST_SIGNED(ANYPROC_TYPE_OPAQUE_PTR);
  CONST_SIGNED(ANYPROC_TYPE_DATA_TYPE);
  CONST_SIGNED(ANYPROC_TYPE_DEVICE);
  CONST_SIGNED(ANYPROC_TYPE_SMALL_STR);
  CONST_SIGNED(ANYPROC_TYPE_SMALL_USTR);
  CONST_SIGNED(ANYPROC_TYPE_SMALL_BYTES);
  CONST_SIGNED(ANYPROC_TYPE_RAW_STR);
  CONST_SIGNED(ANYPROC_TYPE_RAW_USTR);
  CONST_SIGNED(ANYPROC_TYPE_RAW_BYTES);
  CONST_SIGNED(ANYPROC_TYPE_OBJECT_BEGIN);
  CONST_SIGNED(ANYPROC_TYPE_OBJECT);
  CONST_SIGNED(ANYPROC_TYPE_STR);
  CONST_SIGNED(ANYPROC_TYPE_USTR);
  CONST_SIGNED(ANYPROC_TYPE_BYTES);
  CONST_SIGNED(ANYPROC_TYPE_LIST);
  CONST_SIGNED(ANYPROC_TYPE_DICT);
  CONST_SIGNED(ANYPROC_TYPE_FUNC);
  CONST_SIGNED(ANYPROC_TYPE_NDARRAY);
  CONST_SIGNED(ANYPROC_TYPE_ERROR);
  CONST_SIGNED(ANYPROC_TYPE_MODULE);
  CONST_SIGNED(ANYPROC_TYPE_BOXED_INT);
  CONST_SIGNED(ANYPROC_TYPE_BOXED_FLOAT);
  CONST_SIGNED(ANYPROC_TYPE_BOXED_BOOL);
  CONST_SIGNED(ANYPROC_TYPE_SET);
  CONST_SIGNED(ANYPROC_TYPE_TUPLE);
  CONST_SIGNED(ANYPROC_TYPE_STATIC_END);
  CONST_SIGNED(ANYPROC_TYPE_DYNAMIC_BEGIN);

  CONST_UNSIGNED(ANYPROC_ABI_VERSION_MAJOR);
  CONST_UNSIGNED(ANYPROC_ABI_VERSION_MINOR);
  CONST_UNSIGNED(ANYPROC_ABI_VERSION);
  CONST_STR(ANYPROC_PLUGIN_ABI_VERSION_SYMBOL);
  CONST_STR(ANYPROC_PLUGIN_INIT_SYMBOL);

  CONST_UNSIGNED(DLPACK_MAJOR_VERSION);
  CONST_UNSIGNED(DLPACK_MINOR_VERSION);
  CONST_UNSIGNED(DLPACK_FLAG_BITMASK_READ_ONLY);
  CONST_UNSIGNED(DLPACK_FLAG_BITMASK_IS_COPIED);

  CONST_SIGNED(kDLCPU);
  CONST_SIGNED(kDLCUDA);
  CONST_SIGNED(kDLCUDAHost);
  CONST_SIGNED(kDLROCM);
  CONST_SIGNED(kDLCUDAManaged);

  CONST_SIGNED(kDLInt);
  CONST_SIGNED(kDLUInt);
  CONST_SIGNED(kDLFloat);
  CONST_SIGNED(kDLOpaqueHandle);
  CONST_SIGNED(kDLBfloat);
  CONST_SIGNED(kDLComplex);
  CONST_SIGNED(kDLBool);
}

int main(void) {
  values();
  dlpack();
  api();
  constants();
  return 0;
}
