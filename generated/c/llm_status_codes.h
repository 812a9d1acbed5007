/* Generated from the status-code catalog (the YAML files in catalog/). Do not edit: run `make generate`. */

/*
 * LLMStatusCode: the status codes of CANN LLM-DataDist, for C and C++.
 *
 * C:   one macro per code, a plain unsigned literal, usable in #if and as a
 *      case label:            if (status == LLM_FAILED) ...
 * C++: no macros; the same names as constexpr constants in namespace
 *      llm_status_codes, so that this header lives beside upstream's
 *      declarations in llm_datadist:: and ge::. For example,
 *                             if (status == llm_status_codes::LLM_FAILED) ...
 * Both: llm_status_name(code) gives the code's C name, and
 *      llm_status_message(code) the message upstream's C++ library logs
 *      for it; each returns NULL for a code it does not know.
 */
#ifndef LLM_STATUS_CODES_H
#define LLM_STATUS_CODES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#include <cstdint>

namespace llm_status_codes {

constexpr std::uint32_t LLM_SUCCESS = 0x00000000U;
constexpr std::uint32_t LLM_FAILED = 0xFFFFFFFFU;
constexpr std::uint32_t LLM_WAIT_PROC_TIMEOUT = 0x5010B001U;
constexpr std::uint32_t LLM_KV_CACHE_NOT_EXIST = 0x5010B002U;
constexpr std::uint32_t LLM_REPEAT_REQUEST = 0x5010B003U;
constexpr std::uint32_t LLM_REQUEST_ALREADY_COMPLETED = 0x5010B004U;
constexpr std::uint32_t LLM_PARAM_INVALID = 0x5010B005U;
constexpr std::uint32_t LLM_ENGINE_FINALIZED = 0x5010B006U;
constexpr std::uint32_t LLM_NOT_YET_LINK = 0x5010B007U;
constexpr std::uint32_t LLM_ALREADY_LINK = 0x5010B008U;
constexpr std::uint32_t LLM_LINK_FAILED = 0x5010B009U;
constexpr std::uint32_t LLM_UNLINK_FAILED = 0x5010B00AU;
constexpr std::uint32_t LLM_NOTIFY_PROMPT_UNLINK_FAILED = 0x5010B00BU;
constexpr std::uint32_t LLM_CLUSTER_NUM_EXCEED_LIMIT = 0x5010B00CU;
constexpr std::uint32_t LLM_PROCESSING_LINK = 0x5010B00DU;
constexpr std::uint32_t LLM_DEVICE_OUT_OF_MEMORY = 0x5010B00EU;
constexpr std::uint32_t LLM_PREFIX_ALREADY_EXIST = 0x5010B00FU;
constexpr std::uint32_t LLM_PREFIX_NOT_EXIST = 0x5010B010U;
constexpr std::uint32_t LLM_SEQ_LEN_OVER_LIMIT = 0x5010B011U;
constexpr std::uint32_t LLM_NO_FREE_BLOCK = 0x5010B012U;
constexpr std::uint32_t LLM_BLOCKS_OUT_OF_MEMORY = 0x5010B013U;
constexpr std::uint32_t LLM_CACHE_INCOMPATIBLE = 0x5010B014U;
constexpr std::uint32_t LLM_CACHE_KEY_ALREADY_EXIST = 0x5010B015U;
constexpr std::uint32_t LLM_COPY_CACHE_FAILED = 0x5010B016U;
constexpr std::uint32_t LLM_CACHE_ID_ALREADY_EXIST = 0x5010B017U;
constexpr std::uint32_t LLM_EXIST_LINK = 0x5010B018U;
constexpr std::uint32_t LLM_FEATURE_NOT_ENABLED = 0x5010B019U;
constexpr std::uint32_t LLM_TIMEOUT = 0x5010B01AU;
constexpr std::uint32_t LLM_LINK_BUSY = 0x5010B01BU;
constexpr std::uint32_t LLM_OUT_OF_MEMORY = 0x5010B01CU;

}  /* namespace llm_status_codes */

extern "C" {
#else

#define LLM_SUCCESS 0x00000000U
#define LLM_FAILED 0xFFFFFFFFU
#define LLM_WAIT_PROC_TIMEOUT 0x5010B001U
#define LLM_KV_CACHE_NOT_EXIST 0x5010B002U
#define LLM_REPEAT_REQUEST 0x5010B003U
#define LLM_REQUEST_ALREADY_COMPLETED 0x5010B004U
#define LLM_PARAM_INVALID 0x5010B005U
#define LLM_ENGINE_FINALIZED 0x5010B006U
#define LLM_NOT_YET_LINK 0x5010B007U
#define LLM_ALREADY_LINK 0x5010B008U
#define LLM_LINK_FAILED 0x5010B009U
#define LLM_UNLINK_FAILED 0x5010B00AU
#define LLM_NOTIFY_PROMPT_UNLINK_FAILED 0x5010B00BU
#define LLM_CLUSTER_NUM_EXCEED_LIMIT 0x5010B00CU
#define LLM_PROCESSING_LINK 0x5010B00DU
#define LLM_DEVICE_OUT_OF_MEMORY 0x5010B00EU
#define LLM_PREFIX_ALREADY_EXIST 0x5010B00FU
#define LLM_PREFIX_NOT_EXIST 0x5010B010U
#define LLM_SEQ_LEN_OVER_LIMIT 0x5010B011U
#define LLM_NO_FREE_BLOCK 0x5010B012U
#define LLM_BLOCKS_OUT_OF_MEMORY 0x5010B013U
#define LLM_CACHE_INCOMPATIBLE 0x5010B014U
#define LLM_CACHE_KEY_ALREADY_EXIST 0x5010B015U
#define LLM_COPY_CACHE_FAILED 0x5010B016U
#define LLM_CACHE_ID_ALREADY_EXIST 0x5010B017U
#define LLM_EXIST_LINK 0x5010B018U
#define LLM_FEATURE_NOT_ENABLED 0x5010B019U
#define LLM_TIMEOUT 0x5010B01AU
#define LLM_LINK_BUSY 0x5010B01BU
#define LLM_OUT_OF_MEMORY 0x5010B01CU

#endif /* __cplusplus */

/* The C name of a status code, or NULL for a value that is not one. */
static inline const char *llm_status_name(uint32_t code)
{
    switch (code) {
    case 0x00000000U: return "LLM_SUCCESS";
    case 0xFFFFFFFFU: return "LLM_FAILED";
    case 0x5010B001U: return "LLM_WAIT_PROC_TIMEOUT";
    case 0x5010B002U: return "LLM_KV_CACHE_NOT_EXIST";
    case 0x5010B003U: return "LLM_REPEAT_REQUEST";
    case 0x5010B004U: return "LLM_REQUEST_ALREADY_COMPLETED";
    case 0x5010B005U: return "LLM_PARAM_INVALID";
    case 0x5010B006U: return "LLM_ENGINE_FINALIZED";
    case 0x5010B007U: return "LLM_NOT_YET_LINK";
    case 0x5010B008U: return "LLM_ALREADY_LINK";
    case 0x5010B009U: return "LLM_LINK_FAILED";
    case 0x5010B00AU: return "LLM_UNLINK_FAILED";
    case 0x5010B00BU: return "LLM_NOTIFY_PROMPT_UNLINK_FAILED";
    case 0x5010B00CU: return "LLM_CLUSTER_NUM_EXCEED_LIMIT";
    case 0x5010B00DU: return "LLM_PROCESSING_LINK";
    case 0x5010B00EU: return "LLM_DEVICE_OUT_OF_MEMORY";
    case 0x5010B00FU: return "LLM_PREFIX_ALREADY_EXIST";
    case 0x5010B010U: return "LLM_PREFIX_NOT_EXIST";
    case 0x5010B011U: return "LLM_SEQ_LEN_OVER_LIMIT";
    case 0x5010B012U: return "LLM_NO_FREE_BLOCK";
    case 0x5010B013U: return "LLM_BLOCKS_OUT_OF_MEMORY";
    case 0x5010B014U: return "LLM_CACHE_INCOMPATIBLE";
    case 0x5010B015U: return "LLM_CACHE_KEY_ALREADY_EXIST";
    case 0x5010B016U: return "LLM_COPY_CACHE_FAILED";
    case 0x5010B017U: return "LLM_CACHE_ID_ALREADY_EXIST";
    case 0x5010B018U: return "LLM_EXIST_LINK";
    case 0x5010B019U: return "LLM_FEATURE_NOT_ENABLED";
    case 0x5010B01AU: return "LLM_TIMEOUT";
    case 0x5010B01BU: return "LLM_LINK_BUSY";
    case 0x5010B01CU: return "LLM_OUT_OF_MEMORY";
    default: return NULL;
    }
}

/* The message upstream's C++ library registers and logs for a status code,
 * or NULL for a code without one. */
static inline const char *llm_status_message(uint32_t code)
{
    switch (code) {
    case 0x5010B001U: return "request wait to be processed timeout!";
    case 0x5010B002U: return "kv cache not exit!";
    case 0x5010B003U: return "repeat request!";
    case 0x5010B004U: return "request already complete!";
    case 0x5010B005U: return "parameter is invalid!";
    case 0x5010B006U: return "llm engine finalized!";
    case 0x5010B007U: return "local cluster is not linked with remote cluster!";
    case 0x5010B008U: return "local cluster is already linked with remote cluster!";
    case 0x5010B009U: return "local cluster link with remote cluster failed!";
    case 0x5010B00AU: return "local cluster unlink with remote cluster failed!";
    case 0x5010B00BU: return "local cluster notify remote cluster do unlink failed!";
    case 0x5010B00CU: return "cluster num exceed limit!";
    case 0x5010B00DU: return "link is current processing, try again later!";
    case 0x5010B00EU: return "device out of memory!";
    case 0x5010B00FU: return "Prefix has already existed.";
    case 0x5010B010U: return "Prefix does not exist.";
    case 0x5010B011U: return "Sequence length exceed limit.";
    case 0x5010B012U: return "No free block.";
    case 0x5010B013U: return "Block is out of memory.";
    case 0x5010B018U: return "Link existed when switching role, unlink before switch.";
    case 0x5010B019U: return "Feature is not enabled.";
    case 0x5010B01AU: return "Process timeout.";
    case 0x5010B01BU: return "Current link is busy.";
    case 0x5010B01CU: return "Out of memory.";
    default: return NULL;
    }
}

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* LLM_STATUS_CODES_H */
