// Stand-in for CANN runtime's log/hdc_log.h: IDE_LOGE, the one macro hifloat.cpp uses, to standard error.
#ifndef CONVCERT_STUB_HDC_LOG_H
#define CONVCERT_STUB_HDC_LOG_H
#include <cstdio>
#define IDE_LOGE(...) (std::fprintf(stderr, __VA_ARGS__), std::fputc('\n', stderr))
#endif
