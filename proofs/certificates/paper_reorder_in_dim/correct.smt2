; redist certificate: property 'correct' is proved; `z3 correct.smt2` must print unsat.
; The query is the negation of the property for the plan:
;   mesh {x:4, y:4, z:16}
;   source f32[{x,y}512, 128]
;   collective_permute(to=f32[{y,x}512, 128])
;   target f32[{y,x}512, 128]
; 
(set-info :status unsat)
(declare-fun dev_x () Int)
(declare-fun dev_y () Int)
(declare-fun dev_z () Int)
(declare-fun dev_l0 () Int)
(declare-fun dev_l1 () Int)
(assert
 (let (($x7 (>= dev_x 0)))
 (and $x7 (< dev_x 4))))
(assert
 (let (($x12 (>= dev_y 0)))
 (and $x12 (< dev_y 4))))
(assert
 (let (($x16 (>= dev_z 0)))
 (and $x16 (< dev_z 16))))
(assert
 (let (($x21 (>= dev_l0 0)))
 (and $x21 (< dev_l0 32))))
(assert
 (let (($x26 (>= dev_l1 0)))
 (and $x26 (< dev_l1 128))))
(assert
 (let (($x36 (not (and (= dev_l1 dev_l1)))))
 (let (($x33 (not (and (= dev_l0 dev_l0) (= dev_x dev_x) (= dev_y dev_y)))))
 (or $x33 $x36))))
(check-sat)
