/*
 * Reading a DSO's symbols from ELF, as perf 6.1 does: the .symtab of the
 * binary or of its debug file, merged with the binary's .dynsym when the
 * .symtab is the binary's own, else .dynsym alone; functions, objects and
 * text/data labels in loaded sections (not ARM mapping symbols); then,
 * when some symbol was found, the PLT as perf 6.12 names it: "name@plt"
 * for each entry (.plt, or x86's .plt.sec) in GOT-slot order, an
 * IRELATIVE entry after its IFUNC, "offset_0xOFF@plt" where nothing names
 * it, and ".plt" for the header.
 * Never fails (unreadable tables are skipped); never prints.
 */
#ifndef JITSYM_ELF_SYMBOLS_H
#define JITSYM_ELF_SYMBOLS_H

struct elf_image;
struct symtab;

/*
 * Fill st (new, empty) from syms, the file with the .symtab (binary
 * itself, a debug file, or NULL when none was found), and binary (.dynsym,
 * .plt; not NULL), then symtab__finish() it. Names are borrowed into st's
 * own copies: the images may be closed afterwards.
 */
void elf_symbols__load(struct symtab *st, struct elf_image *syms, struct elf_image *binary);

#endif
