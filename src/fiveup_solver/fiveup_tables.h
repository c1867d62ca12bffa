/* Constant tile tables for the fiveup_solver core; tests/test_tables.py recomputes every
   entry independently. Tile index of a-b (a <= b), in order 0-0, 0-1, ..., 0-6, 1-1, ..., 6-6. */
#ifndef FIVEUP_TABLES_H
#define FIVEUP_TABLES_H
#include <stdint.h>
static const uint8_t TILE_LO[28] = {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6};
static const uint8_t TILE_HI[28] = {0, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 2, 3, 4, 5, 6, 3, 4, 5, 6, 4, 5, 6, 5, 6, 6};
static const uint8_t TILE_PIPS[28] = {0, 1, 2, 3, 4, 5, 6, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7, 8, 6, 7, 8, 9, 8, 9, 10, 10, 11, 12};
static const uint32_t PIP_MASK[7] = {0x000007fu, 0x0001f82u, 0x003e104u, 0x03c4208u, 0x1c88410u, 0x6910820u, 0xd221040u};
static const uint8_t TILE_INDEX[7][7] = {{0, 1, 2, 3, 4, 5, 6}, {1, 7, 8, 9, 10, 11, 12}, {2, 8, 13, 14, 15, 16, 17}, {3, 9, 14, 18, 19, 20, 21}, {4, 10, 15, 19, 22, 23, 24}, {5, 11, 16, 20, 23, 25, 26}, {6, 12, 17, 21, 24, 26, 27}};
#define DOUBLES_MASK 0xa442081u
#endif
