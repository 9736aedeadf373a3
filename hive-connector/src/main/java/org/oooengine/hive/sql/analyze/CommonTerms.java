package org.oooengine.hive.sql.analyze;

import static org.apache.hadoop.hive.ql.parse.HiveParser.KW_AND;
import static org.apache.hadoop.hive.ql.parse.HiveParser.KW_OR;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hive.ql.parse.ASTNode;

/** Conditions rewritten so that what every branch of an OR requires is a conjunct of its own. */
final class CommonTerms {
    private CommonTerms() {
    }

    /**
     * The conjuncts with those every branch of an OR repeats taken out of it: {@code (a AND b) OR
     * (a AND c)} is {@code a AND (b OR c)} (so in SQL's three-valued logic too). TPC-DS Q41 writes
     * its correlation into each branch; taken out, it is an equality to decorrelate on.
     */
    static List<ASTNode> outOfOr(List<ASTNode> conjuncts) {
        List<ASTNode> out = new ArrayList<>();
        for (ASTNode c : conjuncts) {
            if (c.getType() != KW_OR) {
                out.add(c);
                continue;
            }
            List<List<ASTNode>> branches = new ArrayList<>();
            for (ASTNode d : disjuncts(c)) {
                branches.add(Ast.conjuncts(d));
            }
            Set<String> common = new LinkedHashSet<>();
            for (ASTNode t : branches.get(0)) {
                String text = t.toStringTree();
                if (branches.stream().allMatch(b -> b.stream().anyMatch(x -> x.toStringTree().equals(text)))) {
                    common.add(text);
                }
            }
            if (common.isEmpty()) {
                out.add(c);
                continue;
            }
            Set<String> taken = new HashSet<>();
            for (ASTNode t : branches.get(0)) {
                if (common.contains(t.toStringTree()) && taken.add(t.toStringTree())) {
                    out.add(Ast.copy(t));
                }
            }
            List<ASTNode> rests = new ArrayList<>();
            for (List<ASTNode> b : branches) {
                List<ASTNode> rest = b.stream().filter(x -> !common.contains(x.toStringTree())).map(Ast::copy).toList();
                if (rest.isEmpty()) {
                    rests = null; // a branch of only common terms: the rest of the OR adds nothing
                    break;
                }
                rests.add(and(rest));
            }
            if (rests != null) {
                ASTNode or = rests.get(0);
                for (int i = 1; i < rests.size(); i++) {
                    or = Ast.node(KW_OR, "or", List.of(or, rests.get(i)));
                }
                out.add(or);
            }
        }
        return out;
    }

    private static List<ASTNode> disjuncts(ASTNode n) {
        List<ASTNode> out = new ArrayList<>();
        if (n.getType() == KW_OR) {
            Ast.children(n).forEach(c -> out.addAll(disjuncts(c)));
        } else {
            out.add(n);
        }
        return out;
    }

    private static ASTNode and(List<ASTNode> terms) {
        ASTNode out = terms.get(0);
        for (int i = 1; i < terms.size(); i++) {
            out = Ast.node(KW_AND, "and", List.of(out, terms.get(i)));
        }
        return out;
    }
}
