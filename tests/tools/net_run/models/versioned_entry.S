/* QnnModel_composeGraphs of the API 2.13 test library (x86_64): a wrapper shaped like the code
 * compilers emit for the vendor's generated compose functions, as model_abi.cpp reads them. On
 * entry the 440-byte table (55 members) starts at 8(%rsp) and `debug` follows at 448(%rsp). The
 * wrapper takes the table's address and reads `debug` with a byte load, as compiled code does,
 * then reserves and releases a 128-byte outgoing area with its unwind notes, which is what a call
 * passing a 120-byte Qnn_Tensor_t by value looks like (QnnModel::addTensor takes one), and
 * finally jumps to the C++ compose with its arguments untouched. */
        .text
        .globl  QnnModel_composeGraphs
        .type   QnnModel_composeGraphs, @function
QnnModel_composeGraphs:
        .cfi_startproc
        leaq    8(%rsp), %rax
        movzbl  448(%rsp), %eax
        subq    $128, %rsp
        .cfi_adjust_cfa_offset 128
        addq    $128, %rsp
        .cfi_adjust_cfa_offset -128
        jmp     VersionedModel_composeGraphs@PLT
        .cfi_endproc
        .size   QnnModel_composeGraphs, .-QnnModel_composeGraphs
        .section .note.GNU-stack,"",@progbits
