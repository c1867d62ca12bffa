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
/* tiles that fit some open port, by the 7-bit mask of pip values with an open port */
static const uint32_t PLAYABLE_BY_OPEN_VALUES[128] = {
    0x0000000u, 0x000007fu, 0x0001f82u, 0x0001fffu, 0x003e104u, 0x003e17fu, 0x003ff86u, 0x003ffffu,
    0x03c4208u, 0x03c427fu, 0x03c5f8au, 0x03c5fffu, 0x03fe30cu, 0x03fe37fu, 0x03fff8eu, 0x03fffffu,
    0x1c88410u, 0x1c8847fu, 0x1c89f92u, 0x1c89fffu, 0x1cbe514u, 0x1cbe57fu, 0x1cbff96u, 0x1cbffffu,
    0x1fcc618u, 0x1fcc67fu, 0x1fcdf9au, 0x1fcdfffu, 0x1ffe71cu, 0x1ffe77fu, 0x1ffff9eu, 0x1ffffffu,
    0x6910820u, 0x691087fu, 0x6911fa2u, 0x6911fffu, 0x693e924u, 0x693e97fu, 0x693ffa6u, 0x693ffffu,
    0x6bd4a28u, 0x6bd4a7fu, 0x6bd5faau, 0x6bd5fffu, 0x6bfeb2cu, 0x6bfeb7fu, 0x6bfffaeu, 0x6bfffffu,
    0x7d98c30u, 0x7d98c7fu, 0x7d99fb2u, 0x7d99fffu, 0x7dbed34u, 0x7dbed7fu, 0x7dbffb6u, 0x7dbffffu,
    0x7fdce38u, 0x7fdce7fu, 0x7fddfbau, 0x7fddfffu, 0x7ffef3cu, 0x7ffef7fu, 0x7ffffbeu, 0x7ffffffu,
    0xd221040u, 0xd22107fu, 0xd221fc2u, 0xd221fffu, 0xd23f144u, 0xd23f17fu, 0xd23ffc6u, 0xd23ffffu,
    0xd3e5248u, 0xd3e527fu, 0xd3e5fcau, 0xd3e5fffu, 0xd3ff34cu, 0xd3ff37fu, 0xd3fffceu, 0xd3fffffu,
    0xdea9450u, 0xdea947fu, 0xdea9fd2u, 0xdea9fffu, 0xdebf554u, 0xdebf57fu, 0xdebffd6u, 0xdebffffu,
    0xdfed658u, 0xdfed67fu, 0xdfedfdau, 0xdfedfffu, 0xdfff75cu, 0xdfff77fu, 0xdffffdeu, 0xdffffffu,
    0xfb31860u, 0xfb3187fu, 0xfb31fe2u, 0xfb31fffu, 0xfb3f964u, 0xfb3f97fu, 0xfb3ffe6u, 0xfb3ffffu,
    0xfbf5a68u, 0xfbf5a7fu, 0xfbf5feau, 0xfbf5fffu, 0xfbffb6cu, 0xfbffb7fu, 0xfbfffeeu, 0xfbfffffu,
    0xffb9c70u, 0xffb9c7fu, 0xffb9ff2u, 0xffb9fffu, 0xffbfd74u, 0xffbfd7fu, 0xffbfff6u, 0xffbffffu,
    0xfffde78u, 0xfffde7fu, 0xfffdffau, 0xfffdfffu, 0xfffff7cu, 0xfffff7fu, 0xffffffeu, 0xfffffffu};
#define DOUBLES_MASK 0xa442081u
#endif
